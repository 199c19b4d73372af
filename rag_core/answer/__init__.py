"""From kept candidates to an answer: gate, context, generation, citations, support."""
