extends Logger
## What Godot logs while a test runs: every error (its rationale, or its code when there is none) and every printed
## line that mentions a panic (godot-rust prints a caught panic as a message). The one logger of the tests, the
## soak and the fuzzer; Godot may log from any thread, so every access takes the lock.
##
##     var log := ErrorLog.new()
##     OS.add_logger(log)
##     ...
##     OS.remove_logger(log)

## Errors and panic lines in the order they came, until [method take] empties it.
var messages: PackedStringArray = []
var _panics: PackedStringArray = []
var _first := ""
var _mutex := Mutex.new()


func _log_error(_function: String, _file: String, _line: int, code: String, rationale: String, _editor_notify: bool, _error_type: int, _script_backtraces: Array[ScriptBacktrace]) -> void:
	_record(rationale if rationale != "" else code)


func _log_message(message: String, _error: bool) -> void:
	if "panic" in message.to_lower():
		_record(message)


func _record(text: String) -> void:
	_mutex.lock()
	messages.append(text)
	if _first == "":
		_first = text
	if "panic" in text.to_lower():
		_panics.append(text)
	_mutex.unlock()


## How many messages hold [param needle] (all of them when it is empty).
func count(needle := "") -> int:
	_mutex.lock()
	var n := 0
	for m in messages:
		if needle in m:
			n += 1
	_mutex.unlock()
	return n


## The messages so far, emptying the list.
func take() -> PackedStringArray:
	_mutex.lock()
	var out := messages.duplicate()
	messages.clear()
	_mutex.unlock()
	return out


## The panic lines so far, emptying that list.
func take_panics() -> PackedStringArray:
	_mutex.lock()
	var out := _panics.duplicate()
	_panics.clear()
	_mutex.unlock()
	return out


## The first message ever logged ("" when none).
func first() -> String:
	_mutex.lock()
	var out := _first
	_mutex.unlock()
	return out
