"""Migration scripts, one per schema change (a package so installs ship them)."""
