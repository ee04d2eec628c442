"""YAML read the way kubectl reads it: a port of go-yaml v2 (the copy in sigs.k8s.io/yaml v1.4).

kubectl and the API server turn a manifest into JSON with sigs.k8s.io/yaml, which parses with
its own copy of go-yaml v2, itself a Go translation of libyaml 0.1 with changes of its own
(plain scalars in flow collections end at ``?`` and may hold ``:``; simple keys expire
lazily; only the first document of the text is read). The C parser dralint composes with
(libyaml 0.1.7, shipped in ruamel.yaml.clib) differs on each of these, so this package
reproduces go-yaml's scanner (:mod:`.scanner`, :mod:`.scalars`, :mod:`.tags`) and parser
(:mod:`.parser`), and builds ruamel node trees (:mod:`.nodes`) like the C composer does, for
the rest of dralint to read positions from. :mod:`dralint.read.compose` decides which of the
two composes a given text.
"""
