extends SceneTree
## Runs every `test_*` method of one test file in a real SceneTree and reports each result on its own line.
##
## Usage (cargo xtask test does this for every tests/<area>/test_*.gd), with the file's path from tests/:
##     godot --headless --path tests -s res://runner.gd -- chains/test_chains.gd
##
## Output protocol, read by xtask: `TEST PASS file::name`, `TEST FAIL file::name: why`, and a final
## `REACH2D_DONE` line. A script error aborts the running coroutine without quitting Godot, so the watchdog
## quits with a failure code when the sentinel is never reached.

const DONE_SENTINEL := "REACH2D_DONE"
const WATCHDOG_SECONDS := 150.0


func _initialize() -> void:
	create_timer(WATCHDOG_SECONDS, true, false, true).timeout.connect(_on_watchdog)
	var args := OS.get_cmdline_user_args()
	if args.is_empty():
		printerr("usage: godot --headless --path tests -s res://runner.gd -- area/test_file.gd")
		quit(2)
		return
	_run(args[0])


func _on_watchdog() -> void:
	printerr("TEST FAIL watchdog: the test file did not finish in %d s" % WATCHDOG_SECONDS)
	quit(3)


func _run(file: String) -> void:
	var path := file if file.begins_with("res://") else "res://" + file
	var script: GDScript = load(path)
	if script == null:
		printerr("TEST FAIL %s: cannot load the test script" % file)
		quit(2)
		return
	var names: Array[String] = []
	for method in script.get_script_method_list():
		var name: String = method["name"]
		if name.begins_with("test_") and not names.has(name):
			names.append(name)
	names.sort()
	# Let the tree settle so that `root` is ready for nodes.
	await process_frame
	for name in names:
		var case: Node = script.new()
		case.name = name
		root.add_child(case)
		await case.call(name)
		var failures: PackedStringArray = case.failures
		if failures.is_empty():
			print("TEST PASS %s::%s" % [file, name])
		else:
			print("TEST FAIL %s::%s: %s" % [file, name, " | ".join(failures)])
		case.queue_free()
		await process_frame
	print(DONE_SENTINEL)
	quit(0)
