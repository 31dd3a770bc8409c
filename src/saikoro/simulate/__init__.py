"""The encounter simulator (``saikoro simulate``): plays a fight many times through the
real table core and trackers, with a policy per side, and says how often each side wins.

    from saikoro.simulate import Plan, from_files, simulate
    summary = simulate(from_files(["alice.json"], ["goblin.json:3"]), Plan(fights=1000, seed=1))
"""

from __future__ import annotations

from saikoro.simulate.model import Option, Policy, Situation
from saikoro.simulate.policies import POLICIES, get_policy, register_policy
from saikoro.simulate.run import Plan, replay, set_up, simulate
from saikoro.simulate.setup import Encounter, Fighter, SimulationError, from_files, from_state
from saikoro.simulate.stats import Summary, wilson

__all__ = [
    "POLICIES",
    "Encounter",
    "Fighter",
    "Option",
    "Plan",
    "Policy",
    "SimulationError",
    "Situation",
    "Summary",
    "from_files",
    "from_state",
    "get_policy",
    "register_policy",
    "replay",
    "set_up",
    "simulate",
    "wilson",
]
