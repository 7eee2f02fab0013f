//! Bloemen's benchmark loops (`word_loops`): every loop's checksum agrees, and the empty loop
//! plus GMP's powers gives the same checksum.

use modred_report::word_loops as loops;
use rug::Integer;

fn pow_rug(b: u64, e: u64, m: u64) -> u64 {
    Integer::from(b)
        .pow_mod(&Integer::from(e), &Integer::from(m))
        .expect("m > 0")
        .to_u64()
        .expect("below m")
}

#[test]
fn loop_checksums_agree() {
    for seed in [0u64, 3, 0x5eed] {
        let want = loops::divq_loop(300, seed);
        assert_eq!(loops::divq_u128_loop(300, seed), want);
        assert_eq!(loops::montgomery_loop(300, seed), want);
        assert_eq!(loops::montgomery_seed_loop(300, seed), want);
        assert_eq!(loops::barrett_loop(300, seed), want);
        // The empty loop does only the common part.
        let pows =
            loops::cases(300, seed).fold(0u64, |s, c| s.wrapping_add(pow_rug(c.b, c.e, c.m)));
        assert_eq!(loops::empty_loop(300, seed).wrapping_add(pows), want);
        for c in loops::cases(300, seed) {
            assert!(c.m > 1 << 63 && c.m & 1 == 1);
        }
    }
}
