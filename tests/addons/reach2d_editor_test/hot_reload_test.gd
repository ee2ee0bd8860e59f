@tool
extends Node
## Hot reload of the extension in a running editor (`reloadable = true` in reach2d.gdextension): with a scene of
## one node of every class open, the library file is replaced by a fresh copy (as `cargo xtask build` places a rebuild: a new
## file renamed over the old one, so its modification time changes) and Godot reloads the extension. The nodes must
## survive with their properties (targets, bones, settings, angle limits) and keep solving, with no panic or error.
##
## Run by `cargo xtask test` as "editor (hot reload)": the editor starts with REACH2D_EDITOR_TEST=hot_reload.
const ErrorLog := preload("res://lib/error_log.gd")
const OpenScene := preload("open_scene.gd")

const SCENE := "res://reload/rig.tscn"
const EXTENSION := "res://addons/reach2d/reach2d.gdextension"
const Nodes := preload("res://lib/node_classes.gd")

var failures: PackedStringArray = []
var logger := ErrorLog.new()


func expect(condition: bool, message: String) -> bool:
	if not condition:
		failures.append(message)
	return condition


func frames(n: int) -> void:
	for i in n:
		await get_tree().process_frame


## What must survive a reload: each node's settings and references, as plain values.
func snapshot(root: Node) -> Dictionary:
	var out := {}
	for klass in Nodes.ALL:
		var ik: Node = root.get_node(klass)
		var entry := {"class": ik.get_class(), "weight": ik.weight, "update_mode": ik.update_mode}
		if Nodes.has_target(klass):
			entry["target"] = ik.target
		if Nodes.single_bone(klass):
			entry["bone"] = ik.bone
		else:
			entry["root_bone"] = ik.root_bone
			entry["tip_bone"] = ik.tip_bone
		entry["limit_0"] = ik.has_angle_limits(0)
		out[klass] = entry
	return out


## Replaces the library with a byte-identical new file, as a rebuild placed by `cargo xtask build` would.
func replace_library() -> String:
	var config := ConfigFile.new()
	config.load(EXTENSION)
	var relative: String = config.get_value("libraries", "linux.debug.x86_64", "")
	var library := ProjectSettings.globalize_path(EXTENSION.get_base_dir().path_join(relative))
	var incoming := library + ".incoming"
	if DirAccess.copy_absolute(library, incoming) != OK:
		return "cannot copy %s" % library
	# A modification time one second later at least, so Godot sees a changed library.
	OS.delay_msec(1100)
	FileAccess.open(incoming, FileAccess.READ_WRITE).close()
	if DirAccess.rename_absolute(incoming, library) != OK:
		return "cannot rename over %s" % library
	return ""


func run() -> void:
	OS.add_logger(logger)
	await frames(10)
	var root: Node = await OpenScene.open(get_tree(), SCENE)
	await frames(30)
	root = EditorInterface.get_edited_scene_root()
	if not expect(root != null and root.scene_file_path == SCENE, "the rig scene opened"):
		return finish()
	root.get_node("LookAt2D").set_angle_limits(0, -1.0, 1.0)
	var before := snapshot(root)
	var errors_before := logger.messages.size()
	var problem := replace_library()
	expect(problem == "", problem)
	var reload: int = GDExtensionManager.reload_extension(EXTENSION)
	expect(reload == GDExtensionManager.LOAD_STATUS_OK, "reload_extension returned OK (got %d)" % reload)
	await frames(30)
	root = EditorInterface.get_edited_scene_root()
	if not expect(root != null, "the scene is still open"):
		return finish()
	var after := snapshot(root)
	for klass in Nodes.ALL:
		for key in before[klass]:
			expect(before[klass][key] == after[klass][key], "%s.%s survived the reload (%s -> %s)" % [klass, key, before[klass][key], after[klass][key]])
	# The reloaded code still solves: move each target and let the editor preview follow.
	for i in 4:
		root.get_node("Target%d" % i).position += Vector2(6, -4)
	await frames(10)
	for klass in Nodes.ALL:
		var ik: Node = root.get_node(klass)
		expect(ik.solve(), "%s solves after the reload" % klass)
		expect(ik.last_error >= 0.0 and ik.last_error <= (0.05 if klass == "LookAt2D" else 1.0), "%s reaches its target after the reload (%s)" % [klass, ik.last_error])
		expect(ik.get_setup_warning() == "", "%s has no warning after the reload (%s)" % [klass, ik.get_setup_warning()])
	# The chains watch their tip bone's tree_entered with a callable made by the extension: after a reload, the
	# tip leaving and re-entering the tree must neither call into the unloaded library nor go unnoticed.
	var skeleton: Node = root.get_node("Skeleton0")
	var middle: Node = skeleton.get_node("bone_0/bone_1")
	var spacer := Node2D.new()
	skeleton.get_node("bone_0").remove_child(middle)
	skeleton.get_node("bone_0").add_child(spacer)
	spacer.add_child(middle)
	await frames(3)
	var fabrik: Node = root.get_node("FabrikChain2D")
	expect(fabrik.solve() == false, "after the reload, a chain broken by re-parenting is noticed")
	spacer.remove_child(middle)
	skeleton.get_node("bone_0").add_child(middle)
	spacer.free()
	await frames(3)
	expect(fabrik.solve(), "after the reload, the mended chain solves again")
	var new_messages := logger.messages.slice(errors_before)
	var bad := []
	for m in new_messages:
		# The expected one: the broken chain above is reported once.
		if "panic" in m.to_lower() or ("reach2d" in m.to_lower() and not "not a bone" in m.to_lower()):
			bad.append(m)
	expect(bad.is_empty(), "no panic or extension error during the reload: %s" % [bad])
	print("hot reload: %d editor messages during the reload: %s" % [new_messages.size(), new_messages])
	finish()


func finish() -> void:
	OS.remove_logger(logger)
	if failures.is_empty():
		print("TEST PASS editor::hot_reload")
	else:
		print("TEST FAIL editor::hot_reload: " + " | ".join(failures))
	print("REACH2D_DONE")
	get_tree().quit(0)
