"""Build every distribution, then install each wheel alone into a fresh venv outside the workspace and use it.

A missing dependency declaration fails here. Run: `uv run python tools/check_isolation.py` (tox env `isolation`).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DISTS = ["schema", "store", "match", "compare", "service", "cli", "mcp", "pytest"]

# The smallest real call of each distribution, run inside its own venv.
SMOKE: dict[str, str] = {
    "dynamo-diff-schema": (
        "import dynamo_diff_schema as s; s.validate(s.Manifest().model_dump(mode='json'), 'manifest')"
    ),
    "dynamo-diff-store": "import dynamo_diff_store, dynamo_diff_store.reading",
    "dynamo-diff-match": "import dynamo_diff_match",
    "dynamo-diff-compare": "import dynamo_diff_compare",
    "dynamo-diff-service": (
        "import tempfile, pathlib, dynamo_diff_service as s, dynamo_diff_store as d;"
        "assert s.Service(d.Store(pathlib.Path(tempfile.mkdtemp()) / 'store')).list_captures() == []"
    ),
    "dynamo-diff-cli": "from dynamo_diff_cli.app import app",
    "dynamo-diff-mcp": "import dynamo_diff_mcp.server",
    "dynamo-diff-pytest": (
        "import dynamo_diff_pytest.plugin, dynamo_diff_pytest._budget, dynamo_diff_pytest._recorder, "
        "dynamo_diff_pytest._snapshot"
    ),
    "dynamo-diff": "from dynamo_diff_cli.app import app",
}
SCRIPTS = {"dynamo-diff-cli": ["dynamo-diff", "--version"], "dynamo-diff": ["dynamo-diff", "--version"]}


def run(cmd: list[str], cwd: Path | None = None) -> str:
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.stderr.write(f"$ {' '.join(cmd)}\n{done.stdout}{done.stderr}")
        raise SystemExit(1)
    return done.stdout


def make_venv(base: Path, name: str, *requirements: str, dist: Path) -> Path:
    venv = base / f"venv-{name}"
    run(["uv", "venv", "--quiet", "--python", sys.executable, str(venv)], cwd=base)
    run(
        [
            "uv",
            "pip",
            "install",
            "--quiet",
            "--python",
            str(venv / "bin/python"),
            "--find-links",
            str(dist),
            *requirements,
        ],
        cwd=base,
    )
    return venv


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="dd-isolation-") as tmp:
        base = Path(tmp)
        dist = base / "dist"
        run(["uv", "build", "--all-packages", "--quiet", "-o", str(dist)], cwd=ROOT)
        names = ["dynamo-diff", *[f"dynamo-diff-{d}" for d in DISTS]]
        for name in names:
            stem = name.replace("-", "_")
            wheels = list(dist.glob(f"{stem}-*.whl"))
            sdists = list(dist.glob(f"{stem}-*.tar.gz"))
            if len(wheels) != 1 or len(sdists) != 1:
                print(f"FAIL {name}: expected one wheel and one sdist, found {wheels + sdists}")
                return 1
        for name in names:
            wheel = next(dist.glob(f"{name.replace('-', '_')}-*.whl"))
            venv = make_venv(base, name, str(wheel), dist=dist)
            run([str(venv / "bin/python"), "-I", "-c", SMOKE[name]], cwd=base)
            if name in SCRIPTS:
                out = run([str(venv / "bin" / SCRIPTS[name][0]), *SCRIPTS[name][1:]], cwd=base)
                print(f"  {out.strip()}")
            print(f"ok   {name}: {wheel.name} installs alone and works")
        # Anyone holding normalized JSON can compare with schema + compare only.
        venv = make_venv(base, "schema-compare", "dynamo-diff-schema", "dynamo-diff-compare", dist=dist)
        probe = (
            "import importlib.util as u, dynamo_diff_schema, dynamo_diff_compare;"
            "assert u.find_spec('dynamo_diff_store') is None and u.find_spec('dynamo_diff_cli') is None"
        )
        run([str(venv / "bin/python"), "-I", "-c", probe], cwd=base)
        print("ok   dynamo-diff-schema + dynamo-diff-compare work without store or cli")
        venv = make_venv(base, "umbrella-mcp", f"{next(dist.glob('dynamo_diff-*.whl'))}[mcp]", dist=dist)
        run([str(venv / "bin/python"), "-I", "-c", "import dynamo_diff_mcp.server, dynamo_diff_cli.app"], cwd=base)
        print("ok   dynamo-diff[mcp] brings the MCP server")
        # Without an optional extra, the command that needs it names the extra and writes nothing.
        fixture = ROOT / "fixtures/captures/shape"
        cli = next(dist.glob("dynamo_diff-*.whl"))
        venv = base / "venv-dynamo-diff"  # the umbrella alone, from above
        for extra, args, written in (
            ("parquet", ["--store", str(base / "s1"), "export", str(fixture), "--out", "t1"], base / "t1"),
            ("ray", ["--store", str(base / "s3"), "import", str(fixture), "--executor", "ray"], base / "s3"),
        ):
            done = subprocess.run(
                [str(venv / "bin/dynamo-diff"), *args], cwd=base, capture_output=True, text=True, check=False
            )
            if done.returncode != 2 or "error[missing_extra]" not in done.stderr or written.exists():
                said = f"{done.stdout}{done.stderr}"
                sys.stderr.write(f"{args[2]} without the {extra} extra: exit {done.returncode}\n{said}")
                return 1
            print(f"ok   dynamo-diff {args[2]} names the {extra} extra when it is not installed")
        venv = make_venv(base, "umbrella-parquet", f"{cli}[parquet]", dist=dist)
        run(
            [str(venv / "bin/dynamo-diff"), "--store", str(base / "s2"), "export", str(fixture), "--out", "t2"],
            cwd=base,
        )
        run(
            [
                str(venv / "bin/python"),
                "-I",
                "-c",
                "import pyarrow.parquet as q; q.read_table('t2/compilations.parquet')",
            ],
            cwd=base,
        )
        print("ok   dynamo-diff[parquet] writes the tables")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
