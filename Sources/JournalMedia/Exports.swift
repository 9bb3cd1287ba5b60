// `import JournalMedia` gives a user the whole toolkit: the pipeline (this target) and the
// public types of the layers below it (model, colours, dates; the opaque decoded image).
@_exported import JournalMediaCore
@_exported import JournalMediaImaging
// Suggestion links and push payloads (`link`, `push`): their own target, kept under `import JournalMedia`.
@_exported import JournalMediaNotifications
// The suggestion bundle and card contents: their own target, kept under `import JournalMedia`.
@_exported import JournalMediaSuggestions
