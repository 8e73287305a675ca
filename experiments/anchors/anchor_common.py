"""anchor_common.py: what anchors.py and study_anchors.py share: finding the sumlab binary."""
import os
import shutil
import sys


def find_sumlab(given, prog):
    """given, else the build tree's binary beside this folder (build/experiments/sumlab), else
    `sumlab` on PATH; exits with one line naming prog when there is none."""
    if given:
        return given
    here = os.path.dirname(os.path.abspath(__file__))
    for cand in (os.path.join(here, "..", "..", "build", "experiments", "sumlab"), shutil.which("sumlab")):
        if cand and os.access(cand, os.X_OK):
            return cand
    sys.exit(f"{prog}: no sumlab binary found (give --sumlab PATH)")
