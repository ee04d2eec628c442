"""dralint's YAML reader against kubectl on random documents: how many read differently (the target is none).

Seeded random files (``testing/yamlgen.py``: block and flow styles, YAML 1.1 scalars, quoting
and escapes, tags, anchors and merge keys, odd keys, special floats, multi-document streams,
JSON streams, and many files kubectl refuses) are read by ``kubectl label --local`` (in batches,
one process per batch) and by dralint's reader; every file where the two differ, in what is
accepted or refused, in the words of a refusal or in a value, is a disagreement
(``testing/kubectl.py`` says what is compared). Usage::

    python benchmarks/kubectl_bench.py [--documents 10000] [--seed 1] [--batch 1000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from figures import Figure, cpu_seconds, record  # noqa: E402

from dralint.read import stream  # noqa: E402
from testing import yamlgen  # noqa: E402
from testing.kubectl import KUBECTL, disagreements, kubectl_verdicts  # noqa: E402


def documents_in(text: str) -> int:
    """How many documents kubectl is given: JSON values, or ``---``-separated chunks."""
    if stream.is_json_stream(text):
        return text.count('"apiVersion"')
    return len(stream.yaml_chunks(text.replace("\r\n", "\n"))[0])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=10_000, help="at least this many documents (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first batch (default 1)")
    parser.add_argument("--batch", type=int, default=1000, help="files per kubectl process (default 1000)")
    args = parser.parse_args(argv)
    if KUBECTL is None:
        print("kubectl_bench.py: kubectl is not installed (it is what dralint is compared with)", file=sys.stderr)
        return 2
    files = documents = objects = refused = 0
    kubectl_seconds = dralint_seconds = 0.0
    found: list[str] = []
    seed = args.seed
    while documents < args.documents:
        texts = dict(yamlgen.files(seed, args.batch))
        with tempfile.TemporaryDirectory() as folder:
            for name, text in texts.items():
                (Path(folder) / name).write_bytes(text.encode("utf-8"))
            start = cpu_seconds()
            verdicts = kubectl_verdicts(Path(folder))
            kubectl_seconds += cpu_seconds() - start
        start = time.process_time()
        found += disagreements(texts, verdicts)
        dralint_seconds += time.process_time() - start
        files += len(texts)
        documents += sum(documents_in(text) for text in texts.values())
        objects += sum(len(verdict.objects) for verdict in verdicts.values())
        refused += sum(verdict.error is not None for verdict in verdicts.values())
        seed += 1
    print(f"{files} files (seeds {args.seed}-{seed - 1}), {documents} documents")
    print(f"kubectl: {objects} objects decoded, {refused} files refused")
    processes = files // args.batch
    print(f"CPU: kubectl {kubectl_seconds:.1f} s ({processes} processes), dralint's reader {dralint_seconds:.1f} s")
    print(f"disagreements: {len(found)}")
    for line in found[:20]:
        print(f"  {line[:300]}")
    record(
        Figure(
            "YAML read as kubectl reads it: random documents, files read differently",
            len(found),
            "disagreements",
            "0",
            not found,
            f"{documents} documents in {files} files (seeds {args.seed}-{seed - 1}): kubectl decoded {objects} "
            f"objects and refused {refused} files; CPU kubectl {kubectl_seconds:.0f} s, dralint's reader "
            f"{dralint_seconds:.0f} s",
        )
    )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
