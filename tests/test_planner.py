"""Issue 12, item 7: ``rank`` is ``execute(plan_rank(...))``.

The expected plans come from the documented policy (seprank.linalg.frontdoor's
module docstring, and the cutoffs where they live, seprank.linalg.planner and the
engines' modules: numba from NUMBA_MIN_DIM rows and columns for
primes below its 2^26 limit, multimodular from MULTIMODULAR_MIN_DIM, two random
primes for ``auto``; a matrix over GF(p) has an exact rank there); the ranks
come from construction (products of factors, diagonal matrices).
"""

import dataclasses
import json

import flint
import numpy as np
import pytest

import seprank
import seprank.linalg.engines.flint_nmod as flint_engine
import seprank.linalg.engines.numba_lu as numba_engine
import seprank.linalg.frontdoor as fd
import seprank.linalg.planner as planner
from seprank.errors import InputError, NotPrimeError, ParameterError
from seprank.linalg.engines import REGISTRY
from seprank.linalg.planner import PrimePolicy, RankPlan, plan_rank
from seprank.linalg.residues import ResidueMatrix
from seprank.scalars.primes import DEFAULT_PRIME, is_prime

#: what each engine's rank mod p is called in ``RankResult.method``
USED = {"flint": "flint-nmod", "numba": "numba-lu", "cuda": "cuda-lu"}


def _product(m, n, r, seed=0):
    """An m x n integer matrix of rank r (generic product of m x r and r x n factors)."""
    rng = np.random.default_rng(seed)
    return rng.integers(-4, 5, size=(m, r)) @ rng.integers(-4, 5, size=(r, n))


# ---------------------------------------------------------------- the plans


def test_small_integer_matrix_auto_plans_flint_then_fmpz():
    plan = plan_rank([[1, 2], [2, 4]])
    assert (plan.method_asked, plan.method, plan.field, plan.shape) == ("auto", "auto", "QQ",
                                                                        (2, 2))
    assert plan.engine == "flint" and "NUMBA_MIN_DIM" in plan.engine_reason
    assert plan.primes == PrimePolicy(first=None, count=planner.AUTO_RANK_PRIMES,
                                      span=flint_engine.AUTO_FLINT_PRIME_RANGE,
                                      span_name="AUTO_FLINT_PRIME_RANGE")
    assert plan.fallbacks == ("flint-fmpz",)  # 2 < MULTIMODULAR_MIN_DIM
    assert plan.kinds == ("exact",) and not plan.certify and plan.certificate == ()


def test_large_integer_matrix_plans_numba_and_multimodular():
    A = np.eye(700, dtype=np.int64)
    plan = plan_rank(A)
    assert plan.engine == "numba"
    assert plan.engine_reason == "min(m, n) = 700 >= NUMBA_MIN_DIM = 600"
    assert plan.primes.span == numba_engine.AUTO_NUMBA_PRIME_RANGE
    assert plan.fallbacks == ("multimodular", "flint-fmpz")
    assert plan.multimodular_engine == "numba"
    assert plan.multimodular_primes.span == numba_engine.AUTO_NUMBA_PRIME_RANGE
    # a prime above the numba engine's 2^26 keeps auto on flint
    big_p = plan_rank(A, prime=2**31 - 1)
    assert big_p.engine == "flint" and "2^26" in big_p.engine_reason
    assert big_p.primes.first == 2**31 - 1 and big_p.primes.count == planner.AUTO_RANK_PRIMES
    # an explicit engine wins, and says so
    assert plan_rank(A, engine="flint").engine_reason == "engine='flint' was asked"
    assert "will refuse" in plan_rank(A, engine="numba", prime=2**31 - 1).engine_reason


def test_matrix_over_gf_p_plans_an_exact_rank_there():
    nm = flint.nmod_mat([[1, 2], [3, 1]], 5)
    for method in ("auto", "exact", "modular", "multimodular"):
        plan = plan_rank(nm, method)
        assert (plan.method, plan.field, plan.modulus, plan.kinds) == ("modular", "GF(5)", 5,
                                                                       ("exact",))
        assert plan.primes == PrimePolicy(first=5) and plan.fallbacks == ()
    plan = plan_rank(ResidueMatrix(np.array([[1.0, 2.0], [3.0, 1.0]]), 7), certify=True)
    assert (plan.field, plan.engine) == ("GF(7)", "flint")
    assert any("kernel vectors mod p" in part for part in plan.certificate)


def test_float_and_cuda_and_exact_plans():
    plan = plan_rank([[1.0, 0.5]], method="float", rtol=1e-3)
    assert (plan.method, plan.field, plan.engine, plan.kinds) == ("float", "RR", None,
                                                                 ("float_estimate",))
    assert plan.rtol == 1e-3 and plan.primes is None
    plan = plan_rank([[1, 2], [3, 4]], method="cuda")  # planning needs no GPU
    assert (plan.method_asked, plan.method, plan.engine) == ("cuda", "modular", "cuda")
    assert plan.primes.first == REGISTRY["cuda"].default_prime
    assert plan.kinds == ("exact", "lower_bound")
    plan = plan_rank([[1, 2], [3, 4]], method="exact", certify=True)
    assert plan.engine is None and plan.certificate_primes.first == DEFAULT_PRIME
    assert plan.certificate_primes.count == planner.CERTIFICATE_PRIME_TRIES
    plan = plan_rank([[1, 2], [3, 4]], method="modular", prime=3)
    assert plan.primes == PrimePolicy(first=3) and plan.kinds == ("exact", "lower_bound")


def test_the_cutoffs_are_read_where_they_live_at_call_time(monkeypatch):
    A = _product(40, 36, 28)
    assert plan_rank(A).fallbacks == ("flint-fmpz",)
    monkeypatch.setattr(planner, "MULTIMODULAR_MIN_DIM", 30)
    assert plan_rank(A).fallbacks == ("multimodular", "flint-fmpz")
    monkeypatch.setattr(numba_engine, "NUMBA_MIN_DIM", 30)
    assert plan_rank(A).engine == "numba"


@pytest.mark.parametrize("args, kwargs, error, words", [
    (([[1]], "fast"), {}, ParameterError, "unknown method 'fast'"),
    (([[1]], "exact"), {"tol": 0.1}, ParameterError, "tol and rtol apply to method='float'"),
    (([[1]], "exact"), {"engine": "flint"}, ParameterError, "engine applies to method="),
    (([[1]], "auto"), {"engine": "tpu"}, ParameterError, "unknown engine 'tpu'"),
    (([[1.0]], "float"), {"certify": True}, ParameterError, "cannot be certified"),
    (([[1]], "auto"), {"prime": 9}, NotPrimeError, "9 is not prime"),
    (([[0.5]], "auto"), {}, InputError, "is a float"),
    (([[1], [1, 2]], "exact"), {}, InputError, "ragged rows"),
    ((flint.nmod_mat([[1]], 5), "auto"), {"prime": 7}, InputError, "over GF(5) but prime=7"),
    ((flint.nmod_mat([[1]], 6), "auto"), {}, NotPrimeError, "modulus 6 is not prime"),
])
def test_plan_rank_refuses_what_rank_refuses(args, kwargs, error, words):
    for fn in (plan_rank, seprank.rank):
        with pytest.raises(error) as info:
            fn(*args, **kwargs)
        assert words in str(info.value) and "\n" not in str(info.value)


class _RankWork(Exception):
    """Raised by every patched rank routine: planning must never reach one."""


def _forbid_rank_work(monkeypatch):
    def boom(*args, **kwargs):
        raise _RankWork
    import seprank.linalg.engines.flint_engine as fe
    import seprank.linalg.rational.multimodular as mm

    for name in ("rank_exact", "rank_mod_p", "lower_certificate", "kernel_certificate",
                 "kernel_certificate_mod_p"):
        monkeypatch.setattr(fe, name, boom)
    monkeypatch.setattr(mm, "rank_multimodular", boom)
    monkeypatch.setattr(fd, "float_rank", boom)
    for name, eng in REGISTRY.items():
        monkeypatch.setitem(REGISTRY, name, dataclasses.replace(eng, _profile=boom))


@pytest.mark.parametrize("matrix", [
    [[1, 2], [2, 4]], np.eye(700, dtype=np.int64), _product(250, 240, 200),
    flint.nmod_mat([[1, 2], [3, 1]], 5), ResidueMatrix(np.eye(3), 7),
], ids=["list", "numpy-700", "numpy-250", "nmod_mat", "residues"])
def test_plan_rank_does_no_rank_work(monkeypatch, matrix):
    _forbid_rank_work(monkeypatch)
    for method in ("auto", "exact", "modular", "multimodular", "cuda"):
        for certify in (False, True):
            assert isinstance(plan_rank(matrix, method, certify=certify), RankPlan)
    if not isinstance(matrix, (ResidueMatrix, flint.nmod_mat)):  # no float rank over GF(p)
        assert isinstance(plan_rank(matrix, "float"), RankPlan)
    with pytest.raises(_RankWork):  # the patches are live: executing does reach them
        seprank.rank([[1, 2], [2, 4]], "exact")


# ---------------------------------------------------------------- plans and results agree


@pytest.mark.parametrize("matrix, method, engine, truth", [
    ([[1, 2], [2, 4]], "auto", None, 1),
    (_product(12, 9, 9, seed=1), "auto", None, 9),                  # full: one prime
    (_product(12, 9, 5, seed=2), "auto", None, 5),                  # deficient: fmpz
    (_product(10, 8, 8, seed=3), "modular", "numba", 8),
    (_product(9, 7, 4, seed=4), "exact", None, 4),
    (_product(9, 7, 4, seed=5), "multimodular", None, 4),
    (flint.nmod_mat([[1, 2], [3, 1]], 5), "exact", None, 1),         # det -5 = 0 mod 5
    (ResidueMatrix(np.array([[1, 2], [3, 1]]), 7), "auto", "numba", 2),
])
@pytest.mark.parametrize("certify", [False, True])
def test_results_keep_the_plans_promises(matrix, method, engine, truth, certify):
    plan = plan_rank(matrix, method, certify=certify, engine=engine)
    res = fd.execute(plan)
    assert res.value == truth and res.kind in plan.kinds and res.kind == "exact"
    assert (res.field, tuple(res.shape)) == (plan.field, plan.shape)
    if plan.method in ("modular", "auto") and res.value == min(plan.shape):
        assert res.method == USED[plan.engine]  # settled mod p on the planned engine
        assert 1 <= len(res.primes) <= plan.primes.count
        for p in res.primes:
            assert p == plan.primes.first or plan.primes.span[0] <= p < plan.primes.span[1]
            assert is_prime(p)
    elif plan.method == "auto":
        assert res.method in plan.fallbacks
    if certify:
        assert seprank.verify(matrix, res)
    assert fd.execute(plan).value == truth  # a plan can be run again


def test_modular_lower_bound_is_among_the_kinds():
    plan = plan_rank([[1, 0], [0, 3]], "modular", prime=3)  # singular mod 3, rank 2 over Q
    res = fd.execute(plan)
    assert (res.value, res.kind, res.primes) == (1, "lower_bound", [3])
    assert res.kind in plan.kinds


def test_float_plan_result():
    plan = plan_rank(np.diag([1.0, 1e-20]), "float")
    res = fd.execute(plan)
    assert (res.value, res.kind, res.field) == (1, "float_estimate", "RR")


# ---------------------------------------------------------------- words and CLI


def test_explain_and_repr_say_the_decisions():
    plan = plan_rank(np.eye(700, dtype=np.int64), certify=True)
    text = plan.explain()
    assert text.splitlines()[0] == "rank of a 700 x 700 matrix over QQ"
    for words in ("engine: numba (min(m, n) = 700 >= NUMBA_MIN_DIM = 600)",
                  "up to 2 random primes from [2^19, 2^20)", "1. multimodular",
                  "2. flint fmpz_mat.rank", "answers: exact", "certificate:"):
        assert words in text
    assert repr(plan) == ("RankPlan(auto, 700 x 700 over QQ, engine numba, fallbacks "
                          "multimodular then flint-fmpz, certified, kinds exact)")
    assert "asked: cuda" in plan_rank([[1]], "cuda").explain()


def test_cli_explain_prints_the_plan_without_computing(tmp_path, capsys, monkeypatch):
    from seprank.cli import main

    f = tmp_path / "m.json"
    f.write_text(json.dumps([[1, 2], [2, 4]]))
    _forbid_rank_work(monkeypatch)
    assert main(["rank", str(f), "--explain", "--certify"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("rank of a 2 x 2 matrix over QQ") and "engine: flint" in out
    assert main(["rank", str(f), "--explain", "--method", "float", "--certify"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("seprank: error:") and err.count("\n") == 1


def test_cli_explain_json_is_the_plan_and_matches_what_rank_does(tmp_path, capsys):
    """``--explain --json -`` prints the plan as JSON only; running the same input then
    uses the engine and a prime from the range the plan named."""
    from seprank.cli import main

    f = tmp_path / "m.json"
    f.write_text(json.dumps([[1, 2, 3], [2, 4, 6], [1, 0, 1]]))
    assert main(["rank", str(f), "--explain", "--json", "-"]) == 0
    plan = json.loads(capsys.readouterr().out)
    assert plan["method"] == "auto" and plan["field"] == "QQ" and plan["shape"] == [3, 3]
    assert plan["fallbacks"] == ["flint-fmpz"] and plan["kinds"] == ["exact"]
    lo, hi = plan["primes"]["span"]
    res = seprank.rank([[1, 2, 3], [2, 4, 6], [1, 0, 1]])
    assert res.value == 2 and res.kind in plan["kinds"]
    assert all(lo <= p < hi for p in res.details["primes_tried_mod_p"])
    out = tmp_path / "plan.json"
    assert main(["rank", str(f), "--explain", "--json", str(out), "--prime", "7",
                 "--method", "modular"]) == 0
    assert capsys.readouterr().out.startswith("rank of a 3 x 3 matrix over QQ")
    assert json.loads(out.read_text())["primes"]["first"] == 7
