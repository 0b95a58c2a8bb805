"""run.summary() is `htpscope summary --json`, key for key and value for value."""

import htpscope
from support import EXAMPLE_RUN, cli_json, ground_truth


def test_summary_equals_the_cli_json_on_the_example_run():
    summary = htpscope.load_run(EXAMPLE_RUN).summary()
    assert summary == cli_json("summary", "--json", str(EXAMPLE_RUN))


def test_summary_holds_the_generators_figures():
    truth = ground_truth()
    summary = htpscope.load_run(EXAMPLE_RUN).summary()
    assert summary["work_cycles"] == truth["work_cycles"]
    assert summary["graph_wall_cycles"] == truth["graph_wall_cycles"]
    assert summary["domain_cycles"] == truth["domain_cycles"]
