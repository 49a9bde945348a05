"""Hypothesis draws the same examples on every run by default, so the suite gives one verdict
per commit (CI included). A property test found a counterexample at random in a CI run of
session 25 that a dozen earlier runs had not drawn; a run that draws fresh examples is
`HYPOTHESIS_PROFILE=explore pytest`, and what it finds belongs in an `@example`."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))
