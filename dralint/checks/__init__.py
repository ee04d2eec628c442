"""The built-in checks: one module per check, each mapping the problems analysis finds to rule ids.

The registry (check name → function) is :mod:`dralint.checks.registry`; the rule ids are
:mod:`dralint.checks.rule_ids`. This package module imports neither, so that importing the
rule ids (suppressions do) does not load every check.
"""
