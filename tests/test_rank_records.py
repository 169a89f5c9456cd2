"""Issue 23, item 4 (a result says what ran) and issue 22 (strict argument types) for ``rank``.

Every prime a rank computation tries is in ``RankResult.primes``, in order,
with one ``prime_trials`` entry each; the expectations come from the primes the
test itself sees drawn (the front door's ``random_prime``, wrapped), from
hand-worked cases (a diagonal matrix singular mod 7 only), and from ranks
given by construction and python-flint's ``fmpz_mat.rank``.
"""

import json

import flint
import numpy as np
import pytest

import seprank
import seprank.linalg.frontdoor as fd
import seprank.linalg.planner as planner
import seprank.linalg.rational.multimodular as mm
from seprank.errors import NotPrimeError, ParameterError
from seprank.linalg.planner import plan_rank
from seprank.linalg.result import RankResult


@pytest.fixture
def drawn(monkeypatch):
    """The random primes the front door draws, in order (the real draws, recorded)."""
    seen = []
    real = fd.random_prime

    def record(lo, hi, rng=None):
        p = real(lo, hi, rng)
        seen.append(p)
        return p

    monkeypatch.setattr(fd, "random_prime", record)
    return seen


def _product(m, n, r, seed):
    rng = np.random.default_rng(seed)
    return rng.integers(-3, 4, size=(m, r)) @ rng.integers(-3, 4, size=(r, n))


def test_a_fallback_keeps_the_random_primes_it_drew(drawn):
    """A rank-deficient 250 x 250 matrix: auto's two random primes do not give full
    rank, so it falls back to the multimodular method (250 >= MULTIMODULAR_MIN_DIM),
    whose first prime is drawn too. All three are in ``primes``, first and in order
    (on the code before issue 23, ``primes`` held only the multimodular method's)."""
    A = _product(250, 250, 40, seed=11)
    truth = flint.fmpz_mat(A.tolist()).rank()
    assert truth <= 40 and min(A.shape) >= planner.MULTIMODULAR_MIN_DIM
    res = seprank.rank(A)
    assert (res.value, res.kind, res.method) == (truth, "exact", "multimodular")
    assert len(drawn) == 3  # two auto primes, then the multimodular method's first
    assert res.primes[:3] == drawn and res.details["primes_tried_mod_p"] == drawn[:2]
    assert [t["prime"] for t in res.prime_trials] == res.primes
    steps = [t["step"] for t in res.prime_trials]
    assert steps[:3] == ["rank mod p", "rank mod p", "multimodular rank phase"]
    assert set(steps[3:]) <= {"multimodular rank phase", "multimodular lifting"}
    for t in res.prime_trials:
        if t["step"] == "multimodular lifting":
            assert t["rank_mod_p"] is None and t["engine"] is None
        else:  # reduction mod p can only lower the rank; none of them gave a full rank
            assert t["rank_mod_p"] <= truth < min(A.shape)
    assert res.prime_trials[0]["engine"] == plan_rank(A).engine
    # the one-line text names the primes of the answering method only
    line = str(res)
    assert "\n" not in line and f"primes {drawn[2]}" in line and str(drawn[0]) not in line


def test_a_failed_multimodular_step_is_recorded_before_fmpz(drawn, monkeypatch):
    """When the multimodular step does not prove the rank (here: no lifting digit is
    allowed), auto goes on to fmpz_mat.rank; its primes stay in the record."""
    real = mm.rank_multimodular
    monkeypatch.setattr(mm, "rank_multimodular",
                        lambda z, **kw: real(z, **{**kw, "max_digits": 0}))
    monkeypatch.setattr(planner, "MULTIMODULAR_MIN_DIM", 30)
    A = _product(40, 36, 28, seed=7)
    res = seprank.rank(A, certify=True)
    assert (res.value, res.kind, res.method) == (flint.fmpz_mat(A.tolist()).rank(), "exact",
                                                 "flint-fmpz")
    steps = [t["step"] for t in res.prime_trials]
    k = steps.index("certificate minor")
    assert steps[:2] == ["rank mod p", "rank mod p"]
    assert set(steps[2:k]) == {"multimodular rank phase"} and k >= 3
    assert res.primes[:3] == drawn[:3] and [t["prime"] for t in res.prime_trials] == res.primes
    assert res.prime_trials[k]["prime"] == res.certificate.lower.prime
    assert seprank.verify(A, res)
    assert str(res).count("primes") == 1 and f"primes {res.certificate.lower.prime}" in str(res)


def test_the_prime_loop_records_each_rank(monkeypatch):
    """diag(7, 1): singular mod 7, of full rank mod 11 (hand-worked)."""
    primes = iter([7, 11])
    monkeypatch.setattr(fd, "_auto_prime", lambda span: next(primes))
    res = seprank.rank([[7, 0], [0, 1]])
    assert res.primes == [7, 11]
    assert [(t["prime"], t["rank_mod_p"], t["step"], t["method"]) for t in res.prime_trials] \
        == [(7, 1, "rank mod p", "flint-nmod"), (11, 2, "rank mod p", "flint-nmod")]


def test_certified_fmpz_answer_lists_auto_primes_then_the_minor(drawn):
    A = [[1, 2, 3], [2, 4, 6], [1, 0, 1]]  # rank 2: row 1 = 2 row 0
    res = seprank.rank(A, certify=True)
    assert (res.value, res.method) == (2, "flint-fmpz")
    assert res.primes == drawn[:2] + [res.certificate.lower.prime]
    assert res.prime_trials[-1] == {"prime": res.certificate.lower.prime,
                                    "step": "certificate minor", "engine": None,
                                    "method": "flint-fmpz", "rank_mod_p": 2}
    assert str(res) == ("rank 2 (exact over QQ; 3 x 3; method flint-fmpz; primes "
                        f"{res.certificate.lower.prime}; certificate attached)")
    d = json.loads(json.dumps(res.to_dict()))
    assert d["primes"] == res.primes and d["prime_trials"] == res.prime_trials


def test_single_prime_results_have_one_trial():
    res = seprank.rank([[1, 0], [0, 3]], "modular", prime=3)  # singular mod 3
    assert res.prime_trials == [{"prime": 3, "step": "rank mod p", "engine": "flint",
                                 "method": "flint-nmod", "rank_mod_p": 1}]
    gf = seprank.rank(flint.nmod_mat([[1, 2], [3, 1]], 5))  # det -5 = 0 mod 5
    assert [(t["prime"], t["rank_mod_p"]) for t in gf.prime_trials] == [(5, 1)]
    assert seprank.rank([[1.0, 0.5]], "float").prime_trials == []
    assert "prime_trials" not in seprank.rank([[1, 2]], "exact").to_dict()


def test_a_hand_made_result_without_trials_prints_its_primes():
    res = RankResult(2, "lower_bound", "flint-nmod", "QQ", (3, 3), primes=[5, 7])
    assert str(res).endswith("; primes 5, 7)") and res.answer_primes == [5, 7]


# ---------------------------------------------------------------- issue 22: types


@pytest.mark.parametrize("kwargs, words", [
    ({"certify": "yes"}, "certify must be True or False, got 'yes' (str)"),
    ({"certify": 1}, "certify must be True or False, got 1 (int)"),
    ({"certify": None}, "certify must be True or False, got None (NoneType)"),
    ({"certify": np.bool_(True)}, "certify must be True or False"),
    ({"method": None}, "method must be a str, one of auto, exact"),
    ({"method": 1}, "method must be a str"),
    ({"engine": 1}, "engine must be None or a str, one of flint, numba, cuda; got 1 (int)"),
    ({"engine": True}, "engine must be None or a str"),
    ({"method": "float", "tol": "0.1"}, "tol must be None or a real number"),
    ({"method": "float", "rtol": True}, "rtol must be None or a real number"),
])
def test_arguments_of_the_wrong_type_are_refused(kwargs, words):
    kwargs = {"method": "auto", **kwargs}
    method = kwargs.pop("method")
    for fn in (seprank.rank, plan_rank):
        with pytest.raises(ParameterError) as info:
            fn([[1, 2], [3, 4]], method, **kwargs)
        assert words in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("prime, words", [
    (True, "prime must be None or an int, got True (bool)"),
    (7.0, "prime must be None or an int, got 7.0 (float)"),
    ("7", "prime must be None or an int, got '7' (str)"),
])
def test_a_prime_that_is_not_an_int_is_refused(prime, words):
    for fn in (seprank.rank, plan_rank):
        with pytest.raises(NotPrimeError) as info:
            fn([[1, 2], [3, 4]], "modular", prime=prime)
        assert words in str(info.value) and "\n" not in str(info.value)


def test_integers_and_real_numbers_of_numpy_are_accepted():
    res = seprank.rank([[1, 0], [0, 3]], "modular", prime=np.int64(3))
    assert res.primes == [3] and res.value == 1
    assert seprank.rank([[1.0, 0.0], [0.0, 1e-20]], "float", tol=np.float64(1e-10)).value == 1
    assert seprank.rank([[1, 2], [2, 4]], certify=False).value == 1
