"""Findings on the user's own lines: in a git work tree, the innermost
frame under it (site-packages skipped) is the finding's Python line,
relative; SARIF's primary location is that .py file, GitHub annotates it,
and the text leads with it."""
import json
import os
import subprocess
import sys

from conftest import ROOT, run

BIN = os.path.join(ROOT, "build", "hlolint")

# A module whose debug print was traced from model.py (called by train.py),
# through an installed package frame that must be skipped.  Stack frames as
# XLA writes them: parent_frame_id is the caller's id + 1 (1 = none).
HLO = """HloModule jit_step, entry_computation_layout={(f32[8]{0})->f32[8]{0}}

FileNames
1 "{root}/src/model.py"
2 "{venv}/lib/python3.11/site-packages/flax/linen/module.py"
3 "{root}/train.py"

FunctionNames
1 "f"

FileLocations
1 {file_name_id=2 function_name_id=1 line=700 end_line=700 column=1 end_column=1}
2 {file_name_id=1 function_name_id=1 line=12 end_line=12 column=1 end_column=1}
3 {file_name_id=3 function_name_id=1 line=5 end_line=5 column=1 end_column=1}

StackFrames
1 {file_location_id=3 parent_frame_id=1}
2 {file_location_id=2 parent_frame_id=2}
3 {file_location_id=1 parent_frame_id=3}

ENTRY %main (x: f32[8]) -> f32[8] {
  %x = f32[8]{0} parameter(0)
  %p = () custom-call(f32[8]{0} %x), custom_call_target="xla_ffi_python_cpu_callback", custom_call_has_side_effect=true, metadata={op_name="jit(step)/debug_callback" stack_frame_id=3}
  ROOT %y = f32[8]{0} add(f32[8]{0} %x, f32[8]{0} %x)
}
"""


def _repo(tmp_path):
    repo = tmp_path / "proj"
    (repo / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    hlo = repo / "dumps" / "step.hlo"
    hlo.parent.mkdir()
    hlo.write_text(HLO.replace("{root}", str(repo)).replace("{venv}", str(repo / ".venv")))
    return repo, hlo


def test_sarif_primary_location_is_python(tmp_path):
    repo, hlo = _repo(tmp_path)
    p = run(BIN, "check", "--no-config", "--format", "sarif", "dumps/step.hlo", cwd=str(repo))
    assert p.returncode == 1, p.stderr
    res = json.loads(p.stdout)["runs"][0]["results"][0]
    loc = res["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": "src/model.py", "uriBaseId": "%SRCROOT%"}
    assert loc["region"]["startLine"] == 12
    rel = res["relatedLocations"][0]["physicalLocation"]
    assert rel["artifactLocation"]["uri"] == "dumps/step.hlo"
    assert "Fix:" in res["message"]["text"] and "**Fix:**" in res["message"]["markdown"]
    rule = json.loads(p.stdout)["runs"][0]["tool"]["driver"]["rules"][0]
    assert rule["helpUri"].startswith("https://")
    q = run(BIN, "check", "--no-config", "--format", "sarif", "--docs-url", "https://example.org/h",
            "dumps/step.hlo", cwd=str(repo))
    assert json.loads(q.stdout)["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"].startswith(
        "https://example.org/h/docs/rules/")


def test_text_and_github_lead_with_python(tmp_path):
    repo, hlo = _repo(tmp_path)
    t = run(BIN, "check", "--no-config", "dumps/step.hlo", cwd=str(repo)).stdout.splitlines()
    assert t[0].startswith("src/model.py:12: warning: ") and t[0].endswith("[host-transfer]")
    assert t[1].startswith("dumps/step.hlo:") and "note: HLO instruction %p" in t[1]
    g = run(BIN, "check", "--no-config", "--format", "github", "dumps/step.hlo", cwd=str(repo)).stdout
    assert g.startswith("::warning file=src/model.py,line=12,title=host-transfer::")
    # --source-root above the work tree: the same frame, relative to it.
    up = run(BIN, "check", "--no-config", "--source-root", str(tmp_path), str(hlo), cwd=str(repo)).stdout
    assert up.startswith("proj/src/model.py:12: warning: ")
    # A root the frames are not under: no user line, the HLO location leads.
    (tmp_path / "elsewhere").mkdir()
    out = run(BIN, "check", "--no-config", "--source-root", str(tmp_path / "elsewhere"), str(hlo)).stdout
    assert out.startswith(str(hlo) + ":")
    assert f"{repo}/src/model.py:12: note: Python source" in out
