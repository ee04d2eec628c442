"""DRA501 and DRA520 on the shipped examples: a workload that gets no devices only because of the order the
files are read is a warning naming the order that fits; one that no order fits is an error that says why.

The examples' cluster: gpu-node-a and gpu-node-b with four A100s and two RDMA NICs each, gpu-node-c with
eight H100s. The training Job needs four A100s and a NIC per pod (2 pods); the chat Deployment one GPU
with 40Gi or more per replica (any of the 16), the embeddings Deployment one shared claim on any GPU, the
notebook Pod one claim on any GPU.
"""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

from dralint.commands.simulate import SimulateSettings, dry_run
from dralint.report import text
from testing.run import ROOT, check


def _examples(tmp_path: Path) -> Path:
    copy = tmp_path / "examples"
    shutil.copytree(ROOT / "examples", copy)
    return copy


def _dry_run_lines(directory: Path) -> list[str]:
    here = os.getcwd()
    os.chdir(directory)
    try:
        outcome = check(["."])
    finally:
        os.chdir(here)
    stream = io.StringIO()
    text.render(outcome.report, stream)
    return [line for line in stream.getvalue().splitlines() if " DRA5" in line]


def test_the_training_job_gets_no_a100s_in_file_order_only(tmp_path: Path) -> None:
    # In file order (apps/inference, legacy, notebooks, research, training) the chat replicas, the
    # embeddings and the notebook take five A100s; created first, the Job takes the eight A100s and the
    # others fit on the H100s: a warning, with that order.
    (line,) = _dry_run_lines(_examples(tmp_path))
    assert line.startswith("apps/training/job.yaml:17:9: warning DRA520 2 of 2 pods of Job ml-training/llm-finetune ")
    assert "; placing Job ml-training/llm-finetune first gives every workload its devices)" in line
    assert line.endswith(
        "or keep Deployment serving/chat-inference, Deployment serving/embeddings and Pod notebooks/notebook off "
        "these devices with a selector or node affinity (8 devices they can use stay free)"
    )


def test_renaming_the_training_folder_so_it_is_read_first_places_every_pod(tmp_path: Path) -> None:
    examples = _examples(tmp_path)
    (examples / "apps" / "training").rename(examples / "apps" / "0-training")
    assert _dry_run_lines(examples) == []
    here = os.getcwd()
    os.chdir(examples)
    try:
        analysis = dry_run(SimulateSettings(paths=(".",), no_config=True, environment={}))
    finally:
        os.chdir(here)
    placed = {p.pod.display: p.node for p in analysis.simulation.placements if p.outcome == "placed"}
    assert [placed[f"ml-training/llm-finetune-{i}"] for i in range(2)] == ["gpu-node-a", "gpu-node-b"]
    assert {placed[f"serving/chat-inference-{i}"] for i in range(3)} == {"gpu-node-c"}


def test_fifteen_chat_replicas_fit_in_no_order(tmp_path: Path) -> None:
    # 15 chat GPUs + 1 for the embeddings' claim + 1 for the notebook's + 8 A100s for the Job = 25 > 16.
    examples = _examples(tmp_path)
    chat = examples / "apps" / "inference" / "chat.yaml"
    chat.write_text(chat.read_text().replace("replicas: 3", "replicas: 15"))
    lines = _dry_run_lines(examples)
    assert [line.split(" ", 3)[:3] for line in lines] == [
        ["apps/notebooks/shared-gpu.yaml:21:5:", "error", "DRA501"],
        ["apps/training/job.yaml:17:9:", "error", "DRA501"],
    ]
    assert (
        "matching devices = 16; no order fits them: pods that can use no other devices need 25 of the 16 devices the "
        "request can use (Deployment serving/chat-inference 15 pods × 1 = 15, Deployment serving/embeddings 3 pods × "
        "0 + 1 shared = 1, Pod notebooks/notebook 1 pod × 0 + 1 shared = 1, Job ml-training/llm-finetune 2 pods × 4 "
        "= 8))"
    ) in lines[0]
    # The Job's request can use the eight A100s only; the chat replicas that took them could use the H100s,
    # so the proof is over the sixteen GPUs of both classes.
    assert (
        "Deployment serving/chat-inference 8 pods × 1 = 8, Job ml-training/llm-finetune 2 pods × 4 = 8 (total 16); "
        "matching devices = 8; no order fits them: pods that can use no other devices need 25 of the 16 devices of "
        "classes a100.gpu.example.com and gpu.example.com ("
    ) in lines[1]
