"""Functions run in worker processes (importable by name for the spawn start method)."""


def pow_many_in_worker(args):
    modulus, bases, exps = args
    return modulus.pow_many(bases, exps)


def fixed_base_in_worker(args):
    fb, exps = args
    return [fb.pow(e) for e in exps]


def pow_batch_in_worker(args):
    import modred

    return modred.pow_batch(args)
