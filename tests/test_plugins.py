"""Check packages from anywhere: the registry, entry points and the example plugin (issue 13).

The example package ``examples/schur_checks`` is made visible to a subprocess
without pip (fast tier): its ``src`` folder and a minimal ``.dist-info``
folder with its ``entry_points.txt`` go on ``PYTHONPATH``, which is all
``importlib.metadata`` reads. The slow test installs it with pip into a fresh
venv, as a user would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

import seprank.proof.registry as registry_module
from seprank.errors import SeprankError
from seprank.proof import CheckRegistry, CheckSpec, check
from seprank.proof.registry import checks_in, plugin_packages

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "schur_checks"
#: the outcomes theory predicts: the Schur product theorem and rank(A o B) <= rank(A) rank(B)
#: hold; rank(A o B) <= rank(A) + rank(B) is false (ranks 2 and 3 give up to 6 > 5)
SCHUR_OUTCOMES = {"Schur-PSD": "holds", "Schur-rank": "holds", "Schur-sum": "false"}


def _fake_install(tmp: Path) -> dict[str, str]:
    """An environment in which ``schur_checks`` is importable and declares its entry point."""
    dist = tmp / "schur_checks-0.1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: schur-checks\nVersion: 0.1.0\n")
    (dist / "entry_points.txt").write_text("[seprank.checks]\nschur_checks = schur_checks\n"
                                           "[seprank.papers]\nschur1911 = schur_checks\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(EXAMPLE / "src"), str(tmp),
                                         env.get("PYTHONPATH", "")])
    return env


def _seprank(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "seprank", *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=300)


def test_no_module_level_registry():
    assert not any(isinstance(v, dict | CheckRegistry) and k.isupper() and "REG" in k
                   for k, v in vars(registry_module).items())
    one, two = CheckRegistry(), CheckRegistry()
    body = check("demo-a", "A", "none")(lambda ctx: None)
    one.add(body.__seprank_check__, "pkg")
    assert "demo-a" in one and "demo-a" not in two


def test_same_id_from_two_functions_is_refused():
    reg = CheckRegistry()
    reg.add(CheckSpec("x", "X", "none", lambda ctx: None), "one")
    with pytest.raises(SeprankError, match="registered twice"):
        reg.add(CheckSpec("x", "X", "none", lambda ctx: 1), "two")


def test_paper_source_is_stored_as_its_citation():
    from seprank.proof import Paper

    paper = Paper("p.txt", "A paper", key="p")
    body = check("demo-p", "P", paper)(lambda ctx: None)
    spec = body.__seprank_check__
    assert spec.source == "p.txt" and spec.paper is paper


def test_example_plugin_runs_through_seprank_prove(tmp_path):
    env = _fake_install(tmp_path)
    listed = _seprank(["prove", "--list"], env, tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "[schur_checks]" in listed.stdout and "[seprank_proofs]" in listed.stdout
    out = _seprank(["prove", "--package", "schur_checks", "--report-dir", "rep", "--quiet",
                    "--json", "-"], env, tmp_path)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert {c["id"]: c["outcome"] for c in data["checks"]} == SCHUR_OUTCOMES
    # the check's own figure is drawn, and the HTML report embeds it (self-contained)
    assert (tmp_path / "rep" / "figures" / "schur_pivots.png").is_file()
    page = (tmp_path / "rep" / "report.html").read_text()
    assert "src='data:image/png;base64," in page and "src='figures/" not in page
    # `seprank report` redraws the declared figure from the JSON alone
    again = _seprank(["report", "rep/report.json", "--html", "again.html"], env, tmp_path)
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "rep" / "report-figures" / "schur_pivots.png").is_file()
    assert "data:image/png;base64," in (tmp_path / "again.html").read_text()
    strict = _seprank(["prove", "--package", "schur_checks", "--no-report", "--strict"],
                      env, tmp_path)
    assert strict.returncode == 1 and "Schur-sum (false)" in strict.stdout


def test_code_version_covers_plugin_packages(tmp_path):
    if "schur_checks" in plugin_packages():
        pytest.skip("schur_checks is installed here: the 'plain' environment has it already")
    code = "from seprank.sweep.store import code_version; print(code_version())"
    plain = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout
    with_plugin = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                 check=True, env=_fake_install(tmp_path)).stdout
    assert plain != with_plugin


def test_checks_in_finds_marked_functions_only(monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLE / "src"))
    import schur_checks.hadamard as mod

    assert sorted(spec.id for spec in checks_in(mod)) == sorted(SCHUR_OUTCOMES)
    reg = CheckRegistry()
    assert reg.load_package("schur_checks") == 3 and reg.packages() == ["schur_checks"]


@pytest.mark.slow
def test_example_plugin_from_a_fresh_venv(tmp_path):
    """pip-installs seprank and the example into a new venv (pip's cache; about a minute)."""
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    install = subprocess.run([str(py), "-m", "pip", "install", "-q", str(ROOT), str(EXAMPLE)],
                             capture_output=True, text=True, timeout=900)
    assert install.returncode == 0, install.stderr[-2000:]
    out = subprocess.run([str(env_dir / "bin" / "seprank"), "prove", "--package",
                          "schur_checks", "--no-report", "--json"], capture_output=True,
                         text=True, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr
    assert {c["id"]: c["outcome"] for c in json.loads(out.stdout)["checks"]} == SCHUR_OUTCOMES


def test_a_plugin_check_may_rely_on_another_package(tmp_path):
    """--package runs the package's checks and what they rely on, from any package."""
    pkg = tmp_path / "src" / "dep_checks"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "uses_ann.py").write_text(
        "from seprank.proof import Claim, check\n\n\n"
        "@check('Dep-demo', 'relies on A-nn', 'none', depends=('A-nn',),\n"
        "       claim=Claim('claim', '0 < 1', 'none', universal=False))\n"
        "def body(ctx):\n"
        "    with ctx.step('0 < 1', source='none') as s:\n"
        "        s.require(0 < 1, 'no')\n"
        "    ctx.conclude('holds', 'proof', 'evaluated', basis='exhaustive')\n")
    dist = tmp_path / "dep_checks-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: dep-checks\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[seprank.checks]\ndep_checks = dep_checks\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path / "src"), str(tmp_path)]))
    out = _seprank(["prove", "--package", "dep_checks", "--no-report", "--json"], env, tmp_path)
    assert out.returncode == 0, out.stderr
    assert [c["id"] for c in json.loads(out.stdout)["checks"]] == ["A-nn", "Dep-demo"]
