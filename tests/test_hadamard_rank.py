"""seprank.hadamard_rank and `seprank hadamard-rank` (issue 22, item 1).

Expectations come from theory, never from the code's own output:

* G = (V V^T)^(Hadamard lam) = M Delta M^T with M n x ((d, lam)) (multinomial
  theorem, levine2020 eq. (27)), so rank G <= min(n, ((d, lam)));
* the Omega rows reach the bound: rank G = ((d, lam)) (levine2020 l.700-712,
  the argument in constructions/omega.py and the check L-Omega);
* equal rows of V give equal rows of G: rank G <= the number of distinct rows;
* float64 is wrong on the Omega rows for d = 2, lam = 8 (n = 9): documented in
  docs/sweeps/float_vs_exact.md (float64 raw rank 6 of 9);
* small cases are ranked again by tests/reference.py (pure Python elimination).
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import seprank
from seprank.constructions import equal_norm_witness, omega_rows
from seprank.errors import InputError, MemoryLimitError, ParameterError
from tests.reference import rank_q


def _gram_power(V, lam):
    """G by definition, in Python integers / Fractions (independent of the package)."""
    return [[sum(a * b for a, b in zip(u, v, strict=True)) ** lam for v in V] for u in V]


def _run(*args, cwd):
    return subprocess.run([sys.executable, "-m", "seprank", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


# ------------------------------------------------------------------ theory


@pytest.mark.parametrize("d, lam, base", [(1, 3, 2), (2, 1, 2), (2, 5, 3), (3, 3, 2),
                                          (4, 2, 5), (3, 5, 2)])
def test_omega_rows_reach_the_bound(d, lam, base):
    res = seprank.hadamard_rank(omega_rows(d, lam, base), lam)
    assert (res.value, res.kind, res.bound) == (comb(d + lam - 1, lam), "exact",
                                               comb(d + lam - 1, lam))
    # the exact-integer path agrees (fmpz elimination instead of a rank mod p)
    assert seprank.hadamard_rank(omega_rows(d, lam, base), lam, method="exact").value == res.value


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(d=st.integers(1, 3), lam=st.integers(1, 4), extra=st.integers(0, 4),
       seed=st.integers(0, 2**16))
def test_rank_never_exceeds_the_multiset_bound_and_matches_a_reference(d, lam, extra, seed):
    n = comb(d + lam - 1, lam) + extra          # often more rows than the bound
    V = np.random.default_rng(seed).integers(-3, 4, size=(n, d)).tolist()
    res = seprank.hadamard_rank(V, lam, float_rank=False)
    assert res.kind == "exact"
    assert res.value <= min(n, comb(d + lam - 1, lam))
    assert res.value == rank_q(_gram_power(V, lam))


def test_repeated_rows_bound_the_rank():
    distinct = [[1, 2, 3], [2, -1, 0], [0, 1, 1]]
    V = [distinct[k % 3] for k in range(9)]        # 9 rows, 3 distinct
    for lam in (1, 2, 5):
        res = seprank.hadamard_rank(V, lam, certify=True)
        assert res.value <= 3 and res.kind == "exact" and res.certificate_verified is True
        assert res.value == rank_q(_gram_power(V, lam))


def test_rational_rows_keep_the_rank_of_G():
    V = [[Fraction(1, 2), 1], [1, Fraction(1, 3)], [2, 2], [5, Fraction(-7, 4)]]
    res = seprank.hadamard_rank(V, 2, certify=True)
    assert res.rows_scaled and res.certificate_verified is True
    assert res.value == rank_q(_gram_power(V, 2)) <= comb(2 + 2 - 1, 2)


def test_equal_norm_witness_has_full_rank():
    w = equal_norm_witness(3, 3)                   # wies2021 Lemma 8: rank ((3, 3)) = 10
    res = seprank.hadamard_rank(w.A, 3, certify=True)
    assert (res.value, res.kind, res.certificate_verified) == (10, "exact", True)


def test_modular_rank_below_n_is_a_lower_bound():
    # G = [[1, 0, 1], [0, 1, 1], [1, 1, 4]] has det 2 (by hand): rank 3 over Q, 2 mod 2
    V = [[1, 0], [0, 1], [1, 1]]
    res = seprank.hadamard_rank(V, 2, method="modular", prime=2)
    assert (res.value, res.kind, res.rank.field) == (2, "lower_bound", "QQ")
    assert res.float_wrong is None                # a lower bound cannot judge a float rank
    assert seprank.hadamard_rank(V, 2, method="modular", prime=3).kind == "exact"


def test_auto_takes_a_rank_mod_p_that_meets_the_bound_when_n_exceeds_it():
    """Issue 31: with n > ((d, lam)) the rank mod p cannot be full, but when it meets
    ((d, lam)) it is the rank over Q (rank G <= ((d, lam)), the multinomial theorem), so
    auto stops there. A 400 x 6 V at lam = 4 (((6, 4)) = 126): auto answers what
    multimodular answers over exact integers, by the mod-p path, in at most twice the
    time of ``method="modular"`` (best CPU time of three runs each, after a warm-up, so
    that compilation and a loaded machine do not count; measured: about 1x)."""
    import time

    rng = np.random.default_rng(5)
    V = rng.integers(-9, 10, size=(400, 6)).tolist()
    bound = comb(6 + 4 - 1, 4)
    ref = seprank.hadamard_rank(V, 4, method="multimodular", float_rank=False)
    assert (ref.value, ref.kind) == (bound, "exact")       # generic V: rank = the bound

    def best(method: str) -> tuple[float, object]:
        seprank.hadamard_rank(V, 4, method=method, float_rank=False)     # warm-up
        times = []
        for _ in range(3):
            t = time.process_time()
            res = seprank.hadamard_rank(V, 4, method=method, float_rank=False)
            times.append(time.process_time() - t)
        return min(times), res

    t_auto, auto = best("auto")
    t_mod, mod = best("modular")
    assert (auto.value, auto.kind) == (ref.value, "exact") == (mod.value, mod.kind)
    assert "mod p" in auto.built and "exact integers" not in auto.built, auto.built
    assert t_auto <= 2 * t_mod + 0.05, (t_auto, t_mod)
    # with certify a rank mod p at the bound proves nothing a certificate can show:
    # auto ranks the exact integers, and the certificate says exact
    cert = seprank.hadamard_rank(V[:130], 4, certify=True, float_rank=False)
    assert (cert.value, cert.kind, cert.certificate_verified) == (bound, "exact", True)


def test_float64_is_wrong_where_the_project_documents_it():
    # docs/sweeps/float_vs_exact.md: Omega rows, d = 2, lam = 8: float64 raw rank 6 of 9
    res = seprank.hadamard_rank(omega_rows(2, 8, 2), 8)
    assert (res.value, res.kind) == (9, "exact")
    assert res.float_rank.kind == "float_estimate" and res.float_rank.value < 9
    assert res.float_wrong is True
    assert "WRONG" in str(res) and res.to_dict()["float_wrong"] is True


def test_result_carries_times_kinds_and_displays():
    res = seprank.hadamard_rank([[1, 2], [3, 4], [5, 7]], 2)
    assert set(res.times) >= {"build_s", "exact_rank_s", "float_build_s", "float_rank_s"}
    data = json.loads(json.dumps(res.to_dict()))
    assert data["kind"] == "exact" and data["float"]["kind"] == "float_estimate"
    assert data["bound"] == 3 and data["memory_estimate_bytes"]["mod_p"] == 32 * 9
    assert "| exact |" in res._repr_markdown_() and "<table>" in res._repr_html_()


def test_float_overflow_is_reported_not_ranked():
    res = seprank.hadamard_rank([[10**200, 1], [1, 10**200]], 2)
    assert res.float_rank is None and "overflow" in res.float_note and res.value == 2


# ------------------------------------------------------------------ refusals (Python)

@pytest.mark.parametrize("kwargs, match", [
    ({"certify": "yes"}, "certify must be True or False"),
    ({"float_rank": 1}, "float_rank must be True or False"),
    ({"method": "fast"}, "unknown method"),
    ({"prime": 4}, "not prime"),
])
def test_bad_arguments_are_one_line_errors(kwargs, match):
    with pytest.raises(seprank.errors.SeprankError, match=match) as exc:
        seprank.hadamard_rank([[1, 2]], 2, **kwargs)
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize("V, lam, error, match", [
    ([[1, 2]], 0, ParameterError, "integer >= 1"),
    ([[1, 2]], 2.0, ParameterError, "integer >= 1"),
    ([[1, 2]], True, ParameterError, "integer >= 1"),
    ([[1, 2], [3]], 2, InputError, "ragged"),
    ([[1, 0.5]], 2, InputError, "a float"),
    (np.array([[1.0, 2.0]]), 2, InputError, "floats"),
    ([[1, "2"]], 2, InputError, "a string"),
    ([[True, 1]], 2, InputError, "a bool"),
    ([], 2, InputError, "no rows"),
])
def test_bad_V_or_lam_are_one_line_errors(V, lam, error, match):
    with pytest.raises(error, match=match) as exc:
        seprank.hadamard_rank(V, lam)
    assert "\n" not in str(exc.value)


def test_memory_is_estimated_before_building(monkeypatch):
    import seprank.budget as budget  # the machine's memory, as every budget reads it

    monkeypatch.setattr(budget, "machine_memory", lambda: (1000, "free memory"))
    # 15 x 15 G mod p and its engine: 32 * 15^2 = 7200 bytes > 0.8 * 1000
    with pytest.raises(MemoryLimitError, match="G mod p") as exc:
        seprank.hadamard_rank(omega_rows(3, 4, 2), 4)
    assert "\n" not in str(exc.value)
    # n > ((d, lam)) with certify: the exact path (a rank mod p at the bound is no
    # certificate), estimated before it is built
    with pytest.raises(MemoryLimitError, match="exact"):
        seprank.hadamard_rank([[1, 2]] * 20, 1, certify=True)


# ------------------------------------------------------------------ the command line


def test_cli_refusals_are_one_line_exit_2_and_write_nothing(tmp_path):
    (tmp_path / "ragged.csv").write_text("1,2\n3\n")
    (tmp_path / "float.json").write_text("[[1, 0.5]]")
    (tmp_path / "text.csv").write_text("1,2\n3,x\n")
    (tmp_path / "V.csv").write_text("1,2\n3,4\n")
    cases = [
        (["ragged.csv", "--lam", "2"], "ragged"),
        (["float.json", "--lam", "2"], "a float"),
        (["text.csv", "--lam", "2"], "'x' is not an integer"),
        (["V.csv", "--lam", "0"], "integer >= 1"),
        (["V.csv"], "--lam LAM is needed"),
        (["V.csv", "--lam", "2", "--omega", "2", "2"], "give V"),
        (["--lemma6", "3", "1", "4", "2"], "d_a = 4"),
    ]
    for args, match in cases:
        out = _run("hadamard-rank", *args, "--json", "answer.json", cwd=tmp_path)
        assert out.returncode == 2, (args, out.stderr)
        assert out.stderr.count("\n") == 1 and out.stderr.startswith("seprank: error:")
        assert match in out.stderr, (args, out.stderr)
        assert not (tmp_path / "answer.json").exists()


def test_cli_end_to_end_json_to_a_file(tmp_path):
    (tmp_path / "V.csv").write_text("1,2,0\n0,1,1\n1,2,0\n2,0,1\n")
    out = _run("hadamard-rank", "V.csv", "--lam", "2", "--certify", "--json", "r.json",
               cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    value, kind = out.stdout.splitlines()[0].split()
    data = json.loads((tmp_path / "r.json").read_text())
    V = [[1, 2, 0], [0, 1, 1], [1, 2, 0], [2, 0, 1]]
    assert int(value) == data["value"] == rank_q(_gram_power(V, 2)) <= 3  # 3 distinct rows
    assert kind == data["kind"] == "exact" and data["certificate_verified"] is True
    assert set(data["times"]) >= {"build_s", "exact_rank_s", "float_rank_s", "verify_s"}
    omega = _run("hadamard-rank", "--omega", "3", "3", "--json", cwd=tmp_path)
    assert json.loads(omega.stdout)["value"] == comb(3 + 3 - 1, 3)   # stdout is only JSON
