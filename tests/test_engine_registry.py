"""Issue 19, item 4: engines dispatch themselves; a new engine is one module and one line.

A toy engine (plain Gaussian elimination mod p in Python, below) is registered
through the public call :func:`seprank.linalg.engines.register_engine`, with no
edit to the planner or the front door. It prefers matrices of at most
``TOY_MAX_DIM`` rows or columns, so the planner must pick it for those, run it
for ``engine="toy"``, name it in ``--explain``, and give the old plans back once
it is unregistered. The expected ranks come from construction (products of
factors of known rank) and from python-flint's ``fmpz_mat.rank``, an independent
engine; the toy's certificates are re-checked by ``seprank.verify``.
"""

import dataclasses
import json

import flint
import numpy as np
import pytest

import seprank
from seprank.errors import ParameterError
from seprank.linalg.engines import (
    REGISTRY,
    engine_names,
    get_engine,
    register_engine,
    unregister_engine,
)
from seprank.linalg.engines.protocol import RESIDUES, ModularEngine, Verdict
from seprank.linalg.planner import choose_engine, plan_rank
from seprank.scalars.primes import is_prime

TOY_MAX_DIM = 4
TOY_PRIME_RANGE = (2**12, 2**13)


def _toy_profile(data, p, overwrite=False):
    """Row echelon form mod p by hand: (rank, original pivot rows, pivot columns)."""
    A = [[int(x) % p for x in row] for row in np.asarray(data).tolist()]
    m, n = len(A), (len(A[0]) if A else 0)
    order, rows, cols, r = list(range(m)), [], [], 0
    for c in range(n):
        piv = next((i for i in range(r, m) if A[i][c]), None)
        if piv is None:
            continue
        A[r], A[piv] = A[piv], A[r]
        order[r], order[piv] = order[piv], order[r]
        inv = pow(A[r][c], -1, p)
        for i in range(r + 1, m):
            f = A[i][c] * inv % p
            if f:
                A[i] = [(a - f * b) % p for a, b in zip(A[i], A[r], strict=True)]
        rows.append(order[r])
        cols.append(c)
        r += 1
    return r, rows, cols


def _toy_prefers(shape, p):
    k = min(shape)
    if k <= TOY_MAX_DIM:
        return Verdict(True, f"min(m, n) = {k} <= TOY_MAX_DIM = {TOY_MAX_DIM}")
    return Verdict(False, f"min(m, n) = {k} > TOY_MAX_DIM = {TOY_MAX_DIM}")


TOY = ModularEngine(
    name="toy", description="Gaussian elimination mod p in pure Python (a test)",
    label="toy-gauss", max_prime=2**31, default_prime=8191,
    auto_primes=TOY_PRIME_RANGE, auto_primes_name="TOY_PRIME_RANGE",
    _profile=_toy_profile, takes=RESIDUES, needs="nothing", _prefers=_toy_prefers)


@pytest.fixture
def toy():
    register_engine(TOY)
    try:
        yield TOY
    finally:
        if "toy" in REGISTRY:
            unregister_engine("toy")


def _product(m, n, r, seed):
    rng = np.random.default_rng(seed)
    return rng.integers(-4, 5, size=(m, r)) @ rng.integers(-4, 5, size=(r, n))


def test_the_toy_profile_is_a_rank_profile():
    """The toy itself is right: its rank is fmpz's and its minor is nonsingular mod p."""
    for seed, (m, n, r) in enumerate([(4, 3, 2), (3, 5, 3), (6, 6, 1), (2, 2, 0)]):
        A = _product(m, n, r, seed)
        rank, rows, cols = _toy_profile(A, 101)
        assert rank == flint.fmpz_mat(A.tolist()).rank() == r
        minor = flint.nmod_mat([[int(A[i, j]) for j in cols] for i in rows], 101) if r else None
        assert r == 0 or minor.det() != 0


def test_the_planner_picks_the_toy_where_it_prefers_the_input(toy):
    A = _product(4, 3, 2, seed=1)
    plan = plan_rank(A)
    assert (plan.engine, plan.engine_reason) == ("toy", "min(m, n) = 3 <= TOY_MAX_DIM = 4")
    assert plan.primes.span == TOY_PRIME_RANGE and plan.primes.span_name == "TOY_PRIME_RANGE"
    assert plan.multimodular_engine is None  # 3 < MULTIMODULAR_MIN_DIM: no multimodular step
    assert plan_rank(A, "multimodular").multimodular_engine == "toy"
    # a larger matrix: the toy declines, says why, and flint (first that can run) takes it
    big = plan_rank(_product(9, 8, 8, seed=2))
    assert big.engine == "flint"
    assert big.engine_reason == ("min(m, n) = 8 < NUMBA_MIN_DIM = 600; "
                                 "min(m, n) = 8 > TOY_MAX_DIM = 4")
    # a prime above the toy's limit: it prefers the size but cannot take the prime
    assert choose_engine((3, 3), 2**61 - 1, "int64") == (
        "flint", "min(m, n) = 3 < NUMBA_MIN_DIM = 600; min(m, n) = 3 <= TOY_MAX_DIM = 4, "
        "but p = 2305843009213693951 is above the toy engine's limit 2^31")


def test_rank_runs_on_the_toy(toy):
    A = _product(4, 3, 2, seed=3)  # rank 2 < 3: auto takes two primes, then fmpz
    res = seprank.rank(A, "modular", engine="toy", prime=101, certify=True)
    assert (res.value, res.kind, res.method, res.primes) == (2, "lower_bound", "toy-gauss",
                                                            [101])
    assert seprank.verify(A, res.certificate.lower)
    full = _product(3, 4, 3, seed=4)  # rank 3 = min(m, n): settled mod the first prime
    auto = seprank.rank(full)
    assert (auto.value, auto.kind, auto.method) == (3, "exact", "toy-gauss")
    assert all(TOY_PRIME_RANGE[0] <= p < TOY_PRIME_RANGE[1] and is_prime(p)
               for p in auto.primes)
    cert = seprank.rank(full, certify=True)
    assert cert.method == "toy-gauss" and seprank.verify(full, cert)
    mm = seprank.rank(A, "multimodular", certify=True)  # rank phase on the toy
    assert (mm.value, mm.kind) == (2, "exact") and seprank.verify(A, mm)


def test_explain_and_the_cli_name_the_toy(toy, tmp_path, capsys):
    from seprank.cli import main

    A = [[1, 2, 3], [2, 4, 6], [1, 0, 1]]
    assert "engine: toy (min(m, n) = 3 <= TOY_MAX_DIM = 4)" in plan_rank(A).explain()
    f = tmp_path / "m.json"
    f.write_text(json.dumps(A))
    assert main(["rank", str(f), "--explain"]) == 0
    assert "engine: toy (min(m, n) = 3 <= TOY_MAX_DIM = 4)" in capsys.readouterr().out
    assert main(["rank", str(f), "--method", "modular", "--engine", "toy", "--json", "-"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["value"], out["method"]) == (2, "toy-gauss")


def test_unregistering_the_toy_restores_the_old_plans():
    A = _product(4, 3, 2, seed=5)
    cases = [(A, "auto"), (A, "multimodular"), (flint.nmod_mat(A.tolist(), 7), "auto"),
             (np.eye(700, dtype=np.int64), "auto")]
    before = [plan_rank(m, method) for m, method in cases]
    names = engine_names()
    register_engine(TOY)
    try:
        during = [plan_rank(m, method) for m, method in cases]
        assert [p.engine or p.multimodular_engine for p in during[:3]] == ["toy"] * 3
        assert during[3] == before[3]  # numba prefers 700 x 700 and is asked first
    finally:
        unregister_engine("toy")
    after = [plan_rank(m, method) for m, method in cases]
    assert after == before and engine_names() == names
    assert [p.explain() for p in after] == [p.explain() for p in before]
    with pytest.raises(ParameterError, match="unknown engine 'toy'"):
        seprank.rank(A, engine="toy")


def test_an_engine_that_is_not_available_is_not_chosen(toy):
    """An engine that prefers an input but whose library or device is missing declines."""
    absent = dataclasses.replace(TOY, name="absent", _available=lambda: False,
                                 needs="a device that is not here")
    unregister_engine("toy")
    register_engine(absent)
    try:
        eng, why = choose_engine((3, 3), None, "int64")
        assert eng == "flint"
        assert why.endswith("but it needs a device that is not here, which is not "
                            "available here")
        assert not get_engine("absent").can_run((3, 3))
    finally:
        unregister_engine("absent")


def test_registration_refuses_what_is_not_an_engine():
    with pytest.raises(ParameterError, match="must be a ModularEngine"):
        register_engine("toy")
    with pytest.raises(ParameterError, match="registered already"):
        register_engine(get_engine("flint"))
    assert register_engine(get_engine("flint"), replace=True) is get_engine("flint")
    assert engine_names() == ("flint", "numba", "cuda")
