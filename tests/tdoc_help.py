"""tdoc_help.py: every `sumlab ... --help` block of docs/cli.md is the binary's --help text,
byte for byte (the page had drifted: options added to a command and not to its block).
usage: python3 tdoc_help.py SOURCE_DIR SUMLAB"""
import re
import subprocess
import sys
from pathlib import Path


def main() -> int:
    src, sumlab = Path(sys.argv[1]), sys.argv[2]
    text = (src / "docs" / "cli.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^`sumlab ([^`]*) --help`:\n\n```\n(.*?)\n```", text, re.S | re.M)
    fails = 0
    for args, doc in blocks:
        out = subprocess.run([sumlab, *args.split(), "--help"], capture_output=True, text=True)
        got = out.stdout.rstrip("\n")
        if out.returncode != 0 or got != doc:
            fails += 1
            print(f"FAIL: docs/cli.md's `sumlab {args} --help` block is not the binary's text (exit "
                  f"{out.returncode}); first difference at line "
                  f"{next((i + 1 for i, (a, b) in enumerate(zip(doc.splitlines(), got.splitlines())) if a != b), min(len(doc.splitlines()), len(got.splitlines())) + 1)}")
    if len(blocks) < 8:
        fails += 1
        print(f"FAIL: {len(blocks)} --help blocks found in docs/cli.md (8 or more expected)")
    print(f"tdoc_help: {len(blocks)} blocks, {fails} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
