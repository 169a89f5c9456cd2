"""The moment route's blocks as tasks (issue 20 item 4): Dask, the store, resuming.

The expectation is always the plain in-process run of the same request: the tasks
change where the eliminations run, never the answer's value, kind or bounds.
"""

from __future__ import annotations

import json
import math

import pytest

import seprank
from seprank.errors import ParameterError
from seprank.models import SelfAttentionNetwork

NET = SelfAttentionNetwork.random(3, 2, 1, seed=0, nonzero=True)


def _inf(**options):
    return seprank.separation_rank(network=NET, N=math.inf, options=options or None)


def _same(a, b) -> None:
    assert (a.value, a.kind, a.upper_bound) == (b.value, b.kind, b.upper_bound)
    assert [x["rank"] for x in a.blocks] == [x["rank"] for x in b.blocks]


def test_store_resumes_without_recomputing(tmp_path, monkeypatch):
    import seprank.separation.moment.tasks as tasks

    plain = _inf()
    store = tmp_path / "blocks.jsonl"
    first = _inf(store=str(store))
    _same(first, plain)
    lines = [json.loads(x) for x in store.read_text().splitlines()]
    planned = [b for b in first.facts["moment_plan"]["blocks"] if b["method"] == "catalecticant"]
    assert len(lines) == len(planned) > 0

    def no_rank(*args, **kwargs):
        raise AssertionError("a subset rank was computed again")

    monkeypatch.setattr(tasks, "subset_rank", no_rank)
    _same(_inf(store=str(store)), plain)                  # every rank read back
    store.write_text("\n".join(json.dumps(x) for x in lines[:-1]) + "\n")
    with pytest.raises(AssertionError, match="computed again"):   # one missing: run again
        _inf(store=str(store))


def test_a_cut_line_is_run_again_and_a_foreign_file_refused(tmp_path):
    store = tmp_path / "blocks.jsonl"
    plain = _inf(store=str(store))
    store.write_text(store.read_text() + '{"key": "abc", "resu')     # an interrupted write
    _same(_inf(store=str(store)), plain)
    other = tmp_path / "other.jsonl"
    other.write_text("not json\n")
    with pytest.raises(ParameterError, match="not a seprank block store"):
        _inf(store=str(other))


def test_local_dask_cluster_gives_the_plain_answer(tmp_path):
    _same(_inf(scheduler="local", workers=2, store=str(tmp_path / "b.jsonl")), _inf())


@pytest.mark.parametrize("options,words", [
    ({"workers": "2"}, "workers must be an integer"),
    ({"workers": True}, "workers must be an integer"),
    ({"scheduler": 1}, "scheduler must be"),
    ({"store": 3}, "store must be a file path"),
])
def test_bad_task_options_are_refused(options, words):
    with pytest.raises(ParameterError, match=words):
        _inf(**options)


def test_cli_task_flags_need_n_inf_and_write_nothing(tmp_path, capsys):
    from seprank.cli import main

    store = tmp_path / "b.jsonl"
    args = ["sep-rank", "-L", "3", "-d_x", "2", "-H", "1", "--seed", "4", "-N", "4",
            "--store", str(store)]
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "-N inf only" in err[0] and not store.exists()
    args[args.index("-N") + 1] = "inf"
    assert main(args) == 0 and store.exists()        # L = 3 has catalecticant blocks
    plain = seprank.separation_rank(3, 2, 1, N=math.inf, weights_seed=4)
    first = capsys.readouterr().out.splitlines()[0]
    assert plain.value > 0 and plain.kind == "exact"
    assert first == f"separation rank = {plain.value} (exact)"
