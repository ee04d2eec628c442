"""The pipeline's owner: runs the stages in order and turns violations into findings."""
