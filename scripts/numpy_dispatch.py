"""The second numerical path of the notebook checks (``make nbval-generic``).

Without arguments: print the SIMD features NumPy dispatches to on this CPU above its compiled
baseline, space-separated, for ``NPY_DISABLE_CPU_FEATURES``.  With ``--blas-core``: print the
OpenBLAS kernel the second path forces through ``OPENBLAS_CORETYPE``: ``Haswell`` (AVX2, a
common laptop's), or ``Sandybridge`` where the host's own kernel already is Haswell, so the
BLAS kernel always differs from the first path's (liblinear and every matrix product go through
it).  With ``--check``: verify, in a process started with those variables (and
``NUMBA_CPU_NAME``) set, that NumPy now runs on its baseline only, OpenBLAS on the kernel named
and numba compiles for the CPU named, and print all three; exit 1 otherwise, so the second
path can never silently be the first one again.
"""
import os
import sys

from numpy._core._multiarray_umath import __cpu_baseline__, __cpu_dispatch__, __cpu_features__


def dispatched_above_baseline():
    """Names of the dispatch targets this CPU supports (``X86_V3``, ``AVX512_ICL``, ...)."""
    return [name for name in __cpu_dispatch__ if __cpu_features__.get(name)]


def blas_architecture():
    """The kernel OpenBLAS runs on in this process (threadpoolctl's ``architecture``)."""
    import numpy  # noqa: F401  (loads NumPy's OpenBLAS)
    from threadpoolctl import threadpool_info

    archs = [i.get("architecture") for i in threadpool_info() if i.get("internal_api") == "openblas"]
    return archs[0] if archs else None


def second_blas_core():
    """``Haswell``, or ``Sandybridge`` when this host's own OpenBLAS kernel is Haswell."""
    return "Sandybridge" if (blas_architecture() or "").lower() == "haswell" else "Haswell"


def check():
    active = dispatched_above_baseline()
    requested = os.environ.get("NPY_DISABLE_CPU_FEATURES", "").split()
    import numba

    cpu = numba.config.CPU_NAME
    print(f"NumPy baseline {' '.join(__cpu_baseline__)}; disabled {' '.join(requested) or 'nothing'}; "
          f"dispatch targets still active: {' '.join(active) or 'none'}; numba CPU: {cpu or 'host'}")
    if active:
        print(f"error: NumPy still dispatches to {active}", file=sys.stderr)
        return 1
    core, want = blas_architecture(), os.environ.get("OPENBLAS_CORETYPE")
    print(f"OpenBLAS kernel: {core}")
    if want and (core or "").lower() != want.lower():
        print(f"error: OpenBLAS runs on {core!r}, not {want!r}", file=sys.stderr)
        return 1
    if os.environ.get("NUMBA_CPU_NAME") and cpu != os.environ["NUMBA_CPU_NAME"]:
        print(f"error: numba compiles for {cpu!r}, not {os.environ['NUMBA_CPU_NAME']!r}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--check"]:
        sys.exit(check())
    if sys.argv[1:] == ["--blas-core"]:
        print(second_blas_core())
        sys.exit(0)
    if sys.argv[1:]:
        sys.exit("usage: python scripts/numpy_dispatch.py [--check | --blas-core]")
    print(" ".join(dispatched_above_baseline()))
