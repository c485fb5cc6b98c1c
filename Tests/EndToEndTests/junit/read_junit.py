"""Reads a JUnit XML file with junitparser (as CI report readers do) and prints what it holds
as JSON: the <testsuites> and <testsuite> counts, and each testcase's classname, name, time,
result (its kind, message, type and text) and system-out. Used by JUnitReportTests."""
import json
import sys

from junitparser import JUnitXml

xml = JUnitXml.fromfile(sys.argv[1])
suites = []
for suite in xml:
    cases = []
    for case in suite:
        results = [{"kind": type(r).__name__, "message": r.message, "type": r.type, "text": r.text} for r in case.result]
        cases.append({"classname": case.classname, "name": case.name, "time": case.time, "file": case._elem.get("file"),
                      "results": results, "systemOut": case.system_out})
    suites.append({"name": suite.name, "tests": suite.tests, "failures": suite.failures, "errors": suite.errors,
                   "skipped": suite.skipped, "time": suite.time, "timestamp": suite.timestamp, "cases": cases})
print(json.dumps({"tag": xml._tag, "name": xml.name, "tests": xml.tests, "failures": xml.failures, "errors": xml.errors,
                  "time": xml.time, "suites": suites}))
