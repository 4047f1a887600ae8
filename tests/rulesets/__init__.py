"""The rulesets' rules, content and playouts, one folder per ruleset."""
