#!/usr/bin/python3
"""Every CI workflow parses, every script it (transitively) calls exists,
and every script a workflow runs completes in --dry-run mode."""
import pathlib
import re
import subprocess
import sys

import yaml

root = pathlib.Path(sys.argv[1])
failures = []
checked = 0
script_re = re.compile(r"\bci/(?:[\w.-]+\.sh|bench)\b")


def scripts_in(text):
    return set(script_re.findall(text))


workflows = sorted((root / ".github/workflows").glob("*.yml"))
if len(workflows) < 3:
    failures.append(f"expected the presubmit, nightly and proofs workflows, found {len(workflows)}")
for wf in workflows:
    doc = yaml.safe_load(wf.read_text())
    # PyYAML reads the key 'on' as True
    if not doc.get("jobs") or not (doc.get("on") or doc.get(True)):
        failures.append(f"{wf.name}: no jobs or no triggers")
        continue
    for job, spec in doc["jobs"].items():
        for step in spec.get("steps", []):
            run = step.get("run")
            if not run:
                continue
            for script in scripts_in(run):
                path = root / script
                if not path.is_file():
                    failures.append(f"{wf.name}/{job}: {script} does not exist")
                    continue
                # What the script calls must exist too.
                for inner in scripts_in(path.read_text()):
                    if not (root / inner).is_file():
                        failures.append(f"{script} calls missing {inner}")
                interp = "bash" if path.suffix == ".sh" else "python3"
                r = subprocess.run([interp, str(path), "--dry-run"], cwd=root,
                                   capture_output=True, text=True, timeout=60)
                checked += 1
                if r.returncode != 0:
                    failures.append(f"{script} --dry-run exited {r.returncode}: {r.stderr.strip()[:200]}")
for f in failures:
    print("FAIL:", f)
print(f"{checked} passed, {len(failures)} failed")
sys.exit(1 if failures or checked == 0 else 0)
