@tool
extends EditorPlugin
## Editor-only tests, run by `cargo xtask test` in a headless editor (REACH2D_EDITOR_TEST=1):
## the IK preview solves in the editor, saving stores the user's own rotations (never the IK pose), and the
## preview's pose comes back right after saving. Same output protocol as tests/runner.gd.

const OpenScene := preload("open_scene.gd")
const FIXTURE := "res://editor/save_roundtrip.tscn"
const COPY := "res://editor/roundtrip_copy.tscn"
const AUTHORED := [0.3, -0.6, 0.4]
## FabrikRig2D's scene: a spine with two arms; its effectors are saved as NodePath arrays (as before issue 31).
const RIG_FIXTURE := "res://editor/rig_roundtrip.tscn"
const RIG_COPY := "res://editor/rig_roundtrip_copy.tscn"
const RIG_BONES := ["spine", "spine/arm_a", "spine/arm_a/hand_a", "spine/arm_b", "spine/arm_b/hand_b"]
const RIG_AUTHORED := [-1.4, -0.9, 0.5, 0.9, -0.5]
## PathChain2D's scene: four bones (bone angle 0.2) following a Path2D's curve in follow mode (the root bone moves).
const PATH_FIXTURE := "res://editor/path_roundtrip.tscn"
const PATH_COPY := "res://editor/path_roundtrip_copy.tscn"
const PATH_BONES := ["bone_0", "bone_0/bone_1", "bone_0/bone_1/bone_2", "bone_0/bone_1/bone_2/bone_3"]
const PATH_AUTHORED := [0.6, -0.5, 0.4, -0.3]

## CopyTransform2D's scene: a sword bone following a hand bone (rotation, position and scale), and another bone.
const COPY_FIXTURE := "res://editor/copy_roundtrip.tscn"
const COPY_COPY := "res://editor/copy_roundtrip_copy.tscn"
## The sword's authored rotation, position and scale, as the fixture has them.
const SWORD_AUTHORED := [-0.4, Vector2(-30, 15), Vector2(0.8, 0.9)]

var failures: PackedStringArray = []


func _enter_tree() -> void:
	if OS.get_environment("REACH2D_EDITOR_TEST") == "hot_reload":
		var hot_reload: Node = preload("hot_reload_test.gd").new()
		add_child(hot_reload)
		get_tree().create_timer(90.0).timeout.connect(func():
			printerr("TEST FAIL editor: watchdog: the hot reload test did not finish")
			get_tree().quit(3))
		hot_reload.run.call_deferred()
		return
	if OS.get_environment("REACH2D_EDITOR_TEST") != "1":
		return
	get_tree().create_timer(90.0).timeout.connect(func():
		printerr("TEST FAIL editor: watchdog: the editor test did not finish")
		get_tree().quit(3))
	_run.call_deferred()


func expect(condition: bool, message: String) -> void:
	if not condition:
		failures.append(message)


func bones_in(root: Node) -> Array:
	return [root.get_node("Skeleton/bone_0"), root.get_node("Skeleton/bone_0/bone_1"), root.get_node("Skeleton/bone_0/bone_1/bone_2")]


## The `rotation = ...` value of each bone section bone_0..bone_2 in the saved .tscn at `path`.
func saved_rotations(path: String) -> Array:
	var text := FileAccess.get_file_as_string(path)
	return ["bone_0", "bone_1", "bone_2"].map(func(name): return saved_rotation(text, name))


## The `rotation = ...` value of the section of the node named `name` in a saved .tscn's `text` (0.0 when the line is
## absent).
func saved_rotation(text: String, name: String) -> float:
	var start := text.find("[node name=\"%s\"" % name)
	var end := text.find("[node", start + 1)
	var section := text.substr(start, end - start if end > 0 else -1)
	var value := 0.0
	for line in section.split("\n"):
		if line.begins_with("rotation = "):
			value = float(line.trim_prefix("rotation = "))
	return value


func _run() -> void:
	for i in 10:
		await get_tree().process_frame
	DirAccess.copy_absolute(ProjectSettings.globalize_path(FIXTURE), ProjectSettings.globalize_path(COPY))
	var root: Node = await OpenScene.open(get_tree(), COPY)
	for i in 10:
		await get_tree().process_frame
	root = EditorInterface.get_edited_scene_root()
	if root == null or root.scene_file_path != COPY:
		print("TEST FAIL editor::save_roundtrip: the scene did not open")
		_finish()
		return
	var ik := root.get_node("FabrikChain2D")
	var bones := bones_in(root)
	var previewed := []
	for b in bones:
		previewed.append(b.rotation)
	var moved := false
	for i in 3:
		moved = moved or absf(previewed[i] - AUTHORED[i]) > 1e-3
	expect(moved, "the preview solves in the editor (rotations %s)" % [previewed])
	expect(ik.last_error >= 0.0 and ik.last_error <= ik.tolerance, "the preview reaches the target (last_error %s)" % ik.last_error)
	var error := EditorInterface.save_scene()
	expect(error == OK, "save_scene() succeeded (%s)" % error)
	await get_tree().process_frame
	var saved := saved_rotations(COPY)
	for i in 3:
		expect(absf(saved[i] - AUTHORED[i]) < 1e-5, "bone_%d saved with its authored rotation %s, not the IK pose (saved %s)" % [i, AUTHORED[i], saved[i]])
	for i in 3:
		expect(absf(bones[i].rotation - previewed[i]) < 1e-4, "bone_%d shows the preview again after saving (%s vs %s)" % [i, bones[i].rotation, previewed[i]])
	# Turning the preview off gives the user's own pose back.
	ik.editor_preview = false
	for i in 3:
		await get_tree().process_frame
	for i in 3:
		expect(absf(bones[i].rotation - AUTHORED[i]) < 1e-5, "bone_%d back at its authored rotation with the preview off (%s)" % [i, bones[i].rotation])
	# The inspector lists an angle-limit entry for every bone of the resolved chain.
	var listed := []
	for p in ik.get_property_list():
		if String(p["name"]).ends_with("/enabled"):
			listed.append(p["name"])
	expect(listed.size() == 3, "the inspector lists angle limits for the 3 bones (%s)" % [listed])
	# A broken setup shows as a configuration warning in the editor (and prints nothing there).
	ik.editor_preview = true
	var target: Node2D = root.get_node("Target")
	ik.target = null
	for i in 3:
		await get_tree().process_frame
	expect("target" in ik.get_setup_warning(), "no target: the configuration warning says so (%s)" % ik.get_setup_warning())
	ik.target = target
	for i in 3:
		await get_tree().process_frame
	expect(ik.get_setup_warning() == "", "the warning clears once the target is set (%s)" % ik.get_setup_warning())
	await _test_bake_button(root, ik)
	await _test_convert_button(root)
	await _test_grounder(root, ik)
	await _test_stepper(root, ik)
	await _test_rig_roundtrip()
	await _test_copy_roundtrip()
	await _test_path_roundtrip()
	var shot := OS.get_environment("REACH2D_EDITOR_SCREENSHOT")
	if shot != "":
		# With a real renderer (cargo xtask screenshots): the 2D editor with the chain's gizmo.
		EditorInterface.set_main_screen_editor("2D")
		EditorInterface.get_selection().clear()
		EditorInterface.get_selection().add_node(ik)
		for i in 30:
			await get_tree().process_frame
		await RenderingServer.frame_post_draw
		var image := EditorInterface.get_base_control().get_viewport().get_texture().get_image()
		image.save_png(shot)
		print("screenshot %s" % shot)
		# The tools plugin's bake section, cut from the inspector, for the README.
		var panels := EditorInterface.get_inspector().find_children("Reach2DBake", "", true, false)
		if not panels.is_empty():
			var rect := Rect2i(panels[0].get_global_rect().grow(8.0)).intersection(Rect2i(Vector2i.ZERO, image.get_size()))
			var bake_shot := shot.get_base_dir().path_join("editor_bake.png")
			image.get_region(rect).save_png(bake_shot)
			print("screenshot %s" % bake_shot)
	if failures.is_empty():
		print("TEST PASS editor::save_roundtrip")
	else:
		print("TEST FAIL editor::save_roundtrip: " + " | ".join(failures))
	_finish()


## The Reach2D tools plugin (addons/reach2d/plugin.cfg, enabled in tests/project.godot): its inspector's Bake button,
## pressed on the IK node, bakes into a copy through the editor's undo history; undo removes it, redo brings it back.
func _test_bake_button(root: Node, ik: Node2D) -> void:
	var player := AnimationPlayer.new()
	player.name = "Player"
	var animation := Animation.new()
	animation.length = 1.0
	animation.step = 0.1
	var track := animation.add_track(Animation.TYPE_VALUE)
	animation.track_set_path(track, "Target:position")
	animation.track_insert_key(track, 0.0, Vector2(480, 420))
	animation.track_insert_key(track, 1.0, Vector2(560, 300))
	var library := AnimationLibrary.new()
	library.add_animation("reach", animation)
	player.add_animation_library("", library)
	root.add_child(player)
	player.owner = root
	EditorInterface.edit_node(ik)
	for i in 5:
		await get_tree().process_frame
	var panels := EditorInterface.get_inspector().find_children("Reach2DBake", "", true, false)
	if not expect_true(panels.size() == 1, "the inspector of the IK node shows the Reach2D bake section (found %d)" % panels.size()):
		return
	var button: Button = panels[0].find_child("BakeButton", true, false)
	expect(button != null and not button.disabled, "the Bake button is there and enabled")
	if button == null:
		return
	button.pressed.emit()
	var baked: Animation = library.get_animation("reach_ik") if library.has_animation("reach_ik") else null
	if not expect_true(baked != null, "the Bake button baked into a copy 'reach_ik' (library holds %s)" % [library.get_animation_list()]):
		return
	var bones := bones_in(root)
	expect(baked.get_track_count() == 1 + bones.size() and baked.track_get_key_count(1) == 11, "the copy keys each of the 3 bones 11 times (%d tracks)" % baked.get_track_count())
	expect(animation.get_track_count() == 1, "the original animation is untouched")
	# Replayed with the IK off, the last key puts the chain's end on the target's last position.
	ik.enabled = false
	ik.editor_preview = false
	player.assigned_animation = "reach_ik"
	player.seek(1.0, true)
	var tip: Bone2D = bones[2]
	var end := tip.global_transform * Vector2(tip.get_length(), 0)
	expect(end.distance_to(Vector2(560, 300)) < ik.tolerance + 0.01, "the baked pose reaches the target (end %s)" % end)
	var history := EditorInterface.get_editor_undo_redo()
	var undo := history.get_history_undo_redo(history.get_object_history_id(player))
	undo.undo()
	expect(not library.has_animation("reach_ik"), "undo removes the baked copy")
	undo.redo()
	expect(library.has_animation("reach_ik"), "redo brings it back")
	# A refused bake through the editor's history adds no action: undo still takes back the last real bake.
	var Bake := preload("res://addons/reach2d/editor/bake.gd")
	var version := undo.get_version()
	var names := library.get_animation_list()
	for bad_step in [NAN, INF, -1.0, 1e-9]:
		var refused := Bake.bake_to_animation(ik, player, &"reach", bad_step, &"refused", history)
		expect(not refused["ok"] and refused.has("error"), "a bake with step %s is refused (%s)" % [bad_step, refused])
	expect(undo.get_version() == version and library.get_animation_list() == names, "the refused bakes add no undo action and no animation")
	undo.undo()
	expect(not library.has_animation("reach_ik"), "undo after the refused bakes still removes the baked copy")
	undo.redo()
	player.assigned_animation = "reach"
	ik.enabled = true
	ik.editor_preview = true
	# "Whole character": every Reach2D node under the player's root node, into the next free name.
	var whole: CheckBox = panels[0].find_child("WholeCharacter", true, false)
	if expect_true(whole != null and not whole.button_pressed, "the section offers the whole-character bake, off for a node no grounder drives"):
		whole.button_pressed = true
		button.pressed.emit()
		expect(library.has_animation("reach_ik2"), "the whole character bakes into 'reach_ik2' (library holds %s)" % [library.get_animation_list()])
		if library.has_animation("reach_ik2"):
			undo.undo()
			expect(not library.has_animation("reach_ik2"), "undo removes the character's bake")
		whole.button_pressed = false
	print("editor bake button: %d tracks x %d keys in 'reach_ik', end at %s, undo/redo ok" % [baked.get_track_count(), baked.track_get_key_count(1), end])


## The tools plugin's Skeleton2D inspector button converts a built-in LookAt modification into a LookAt2D node and
## disables it; undo takes both back.
func _test_convert_button(root: Node) -> void:
	var skeleton: Skeleton2D = root.get_node("Skeleton")
	var stack := SkeletonModificationStack2D.new()
	skeleton.set_modification_stack(stack)
	var look := SkeletonModification2DLookAt.new()
	look.enabled = true
	stack.add_modification(look)
	look.set_bone2d_node(NodePath("bone_0"))
	look.set_target_node(NodePath("../Target"))
	# A FABRIK whose tip takes the target's rotation, on a tip drawn with a bone angle: the converter adds a turned
	# child of the target (issue 21), which undo must take back too.
	var bone_2: Bone2D = skeleton.get_node("bone_0/bone_1/bone_2")
	var bone_2_angle := bone_2.get_bone_angle()
	var bone_2_auto := bone_2.get_autocalculate_length_and_angle()
	bone_2.set_autocalculate_length_and_angle(false)
	bone_2.set_bone_angle(0.4)
	var fabrik := SkeletonModification2DFABRIK.new()
	fabrik.enabled = true
	stack.add_modification(fabrik)
	fabrik.set_target_node(NodePath("../Target"))
	fabrik.set_fabrik_data_chain_length(3)
	for j in 3:
		fabrik.set_fabrik_joint_bone2d_node(j, NodePath("/".join(["bone_0", "bone_1", "bone_2"].slice(0, j + 1))))
	fabrik.set_fabrik_joint_use_target_rotation(2, true)
	var target_children := root.get_node("Target").get_child_count()
	EditorInterface.edit_node(skeleton)
	for i in 5:
		await get_tree().process_frame
	var buttons := EditorInterface.get_inspector().find_children("Reach2DConvert", "Button", true, false)
	if not expect_true(buttons.size() == 1, "the Skeleton2D inspector shows the convert button (found %d)" % buttons.size()):
		skeleton.set_modification_stack(null)
		return
	var before := root.get_child_count()
	buttons[0].pressed.emit()
	var made := root.find_children("*", "LookAt2D", false, false)
	expect(root.get_child_count() == before + 2 and made.size() == 1, "the button created one LookAt2D and one FabrikChain2D (%s)" % [made])
	var chains := root.find_children("Skeleton_FabrikChain2D*", "FabrikChain2D", false, false)
	var turned: Node = root.get_node("Target").get_node_or_null("bone_2Rotation")
	expect(chains.size() == 1 and turned != null and chains[0].target == turned and turned.owner == root, "the FabrikChain2D reaches for a turned child of the target, saved with the scene (%s, chains %s, its target %s, owner %s)" % [turned, chains, chains[0].target if chains.size() == 1 else null, turned.owner if turned != null else null])
	if made.size() == 1:
		expect(made[0].bone == skeleton.get_node("bone_0") and made[0].target == root.get_node("Target"), "with the modification's bone and target")
		expect(made[0].owner == root, "owned by the scene, so it saves")
	expect(not look.enabled, "the built-in modification is disabled")
	var history := EditorInterface.get_editor_undo_redo()
	# The stack runs nothing now: the section offers to remove it (undoable), with the drawn pose put back.
	var offers := EditorInterface.get_base_control().find_children("Reach2DRemoveStack", "ConfirmationDialog", true, false)
	if expect_true(offers.size() == 1, "converting every modification offers to remove the emptied stack (found %d)" % offers.size()):
		offers[0].confirmed.emit()
		offers[0].hide()
		expect(skeleton.get_modification_stack() == null, "confirming removes the stack")
		history.get_history_undo_redo(history.get_object_history_id(skeleton)).undo()
		expect(skeleton.get_modification_stack() == stack, "undo brings the stack back")
	history.get_history_undo_redo(history.get_object_history_id(skeleton)).undo()
	expect(root.get_child_count() == before and look.enabled, "undo removes the node and enables the modification again")
	expect(root.get_node("Target").get_child_count() == target_children and fabrik.enabled, "undo removes the turned target too")
	skeleton.set_modification_stack(null)
	bone_2.set_bone_angle(bone_2_angle)
	bone_2.set_autocalculate_length_and_angle(bone_2_auto)
	print("editor convert button: LookAt modification -> %s, undo ok" % [made])


## FabrikRig2D in the editor: its effectors load from a .tscn saved before effector_tips (NodePath arrays), the preview
## solves both hands, saving stores the authored rotations (never the IK pose) and the effectors as node references,
## and the preview comes back after saving.
func _test_rig_roundtrip() -> void:
	DirAccess.copy_absolute(ProjectSettings.globalize_path(RIG_FIXTURE), ProjectSettings.globalize_path(RIG_COPY))
	var root: Node = await OpenScene.open(get_tree(), RIG_COPY)
	for i in 10:
		await get_tree().process_frame
	root = EditorInterface.get_edited_scene_root()
	if not expect_true(root != null and root.scene_file_path == RIG_COPY, "the rig scene opened"):
		return
	var rig: Node2D = root.get_node("FabrikRig2D")
	expect(rig.get_bone_count() == 5, "the rig resolved its 5 bones from the saved paths (%d; %s)" % [rig.get_bone_count(), rig.get_setup_warning()])
	expect(rig.last_error >= 0.0 and rig.last_error <= rig.tolerance, "the rig's preview reaches both targets (last_error %s)" % rig.last_error)
	var previewed := []
	var moved := false
	for i in RIG_BONES.size():
		var b: Bone2D = root.get_node("Skeleton/" + RIG_BONES[i])
		previewed.append(b.rotation)
		moved = moved or absf(b.rotation - RIG_AUTHORED[i]) > 1e-3
	expect(moved, "the rig's preview moved the bones (%s)" % [previewed])
	expect(EditorInterface.save_scene() == OK, "save_scene() succeeded for the rig")
	await get_tree().process_frame
	var text := FileAccess.get_file_as_string(RIG_COPY)
	for i in RIG_BONES.size():
		var name: String = RIG_BONES[i].get_file()
		var saved := saved_rotation(text, name)
		expect(absf(saved - RIG_AUTHORED[i]) < 1e-5, "rig bone %s saved with its authored rotation %s (saved %s)" % [name, RIG_AUTHORED[i], saved])
		var b: Bone2D = root.get_node("Skeleton/" + RIG_BONES[i])
		expect(absf(b.rotation - previewed[i]) < 1e-4, "rig bone %s shows the preview again after saving" % name)
	# Saved before as NodePath arrays (tip_bones, targets), the effectors are saved again as node references.
	expect("effector_tips = [NodePath(\"../Skeleton/spine/arm_a/hand_a\"), NodePath(\"../Skeleton/spine/arm_b/hand_b\")]" in text, "effector_tips saved as node paths")
	expect("node_paths=PackedStringArray(\"root_bone\", \"effector_tips\", \"effector_targets\")" in text, "and marked as node references")
	expect(not "tip_bones" in text, "the deprecated tip_bones is not saved")
	expect("effector_weights = PackedFloat32Array(1, 2)" in text, "effector_weights saved as written")
	DirAccess.remove_absolute(ProjectSettings.globalize_path(RIG_COPY))


## The `KEY = ...` value of the section of the node named `name` in a saved .tscn's `text`, as Godot would parse it
## (`default` when the line is absent).
func saved_value(text: String, name: String, key: String, default: Variant) -> Variant:
	var start := text.find("[node name=\"%s\"" % name)
	var end := text.find("[node", start + 1)
	var section := text.substr(start, end - start if end > 0 else -1)
	for line in section.split("\n"):
		if line.begins_with(key + " = "):
			return str_to_var(line.trim_prefix(key + " = "))
	return default


## CopyTransform2D in the editor (issue 32): the preview copies rotation, position and scale; saving stores the sword's
## authored values, never the copy; the preview comes back after saving; turning the preview off, and pointing the
## node at another bone, give the authored values back.
func _test_copy_roundtrip() -> void:
	DirAccess.copy_absolute(ProjectSettings.globalize_path(COPY_FIXTURE), ProjectSettings.globalize_path(COPY_COPY))
	var root: Node = await OpenScene.open(get_tree(), COPY_COPY)
	for i in 10:
		await get_tree().process_frame
	root = EditorInterface.get_edited_scene_root()
	if not expect_true(root != null and root.scene_file_path == COPY_COPY, "the copy scene opened"):
		return
	var copy: Node2D = root.get_node("CopyTransform2D")
	var sword: Bone2D = root.get_node("Skeleton/sword")
	var previewed := [sword.rotation, sword.position, sword.scale]
	expect(copy.get_setup_warning() == "" and copy.last_error >= 0.0, "the copy previews (%s, last_error %s)" % [copy.get_setup_warning(), copy.last_error])
	expect(absf(previewed[0] - SWORD_AUTHORED[0]) > 0.1 and previewed[1].distance_to(SWORD_AUTHORED[1]) > 1.0 and previewed[2].distance_to(SWORD_AUTHORED[2]) > 0.1, "the preview moved the sword (%s)" % [previewed])
	expect(EditorInterface.save_scene() == OK, "save_scene() succeeded for the copy")
	await get_tree().process_frame
	var text := FileAccess.get_file_as_string(COPY_COPY)
	var saved := [saved_value(text, "sword", "rotation", 0.0), saved_value(text, "sword", "position", Vector2.ZERO), saved_value(text, "sword", "scale", Vector2.ONE)]
	expect(absf(saved[0] - SWORD_AUTHORED[0]) < 1e-5 and saved[1].distance_to(SWORD_AUTHORED[1]) < 1e-4 and saved[2].distance_to(SWORD_AUTHORED[2]) < 1e-5, "the sword saved with its authored values %s, not the copy's (saved %s)" % [SWORD_AUTHORED, saved])
	expect(absf(sword.rotation - previewed[0]) < 1e-4 and sword.position.distance_to(previewed[1]) < 1e-3 and sword.scale.distance_to(previewed[2]) < 1e-4, "the sword shows the preview again after saving")
	copy.editor_preview = false
	await get_tree().process_frame
	expect([sword.rotation, sword.position, sword.scale] == [saved[0], saved[1], saved[2]] or (absf(sword.rotation - SWORD_AUTHORED[0]) < 1e-5 and sword.position.distance_to(SWORD_AUTHORED[1]) < 1e-4 and sword.scale.distance_to(SWORD_AUTHORED[2]) < 1e-5), "preview off: the sword's authored values are back (%s)" % [[sword.rotation, sword.position, sword.scale]])
	copy.editor_preview = true
	for i in 3:
		await get_tree().process_frame
	var other: Bone2D = root.get_node("Skeleton/other")
	copy.bone = other
	for i in 3:
		await get_tree().process_frame
	expect(absf(sword.rotation - SWORD_AUTHORED[0]) < 1e-5 and sword.position.distance_to(SWORD_AUTHORED[1]) < 1e-4, "another bone: the sword's authored values are back (%s, %s)" % [sword.rotation, sword.position])
	expect(absf(other.rotation - 0.25) > 0.1, "another bone: the copy moves that one")
	print("editor copy: preview moved the sword by %.3f rad, saved %s, authored back with the preview off and on another bone" % [absf(previewed[0] - SWORD_AUTHORED[0]), saved])
	DirAccess.remove_absolute(ProjectSettings.globalize_path(COPY_COPY))


## PathChain2D in the editor, in follow mode: the preview lays the chain along the curve and moves the root bone onto
## it; saving stores the authored rotations and the root's authored position (never the fit), the preview comes back
## after saving, and with the preview off the authored pose (rotations and position) is back.
func _test_path_roundtrip() -> void:
	DirAccess.copy_absolute(ProjectSettings.globalize_path(PATH_FIXTURE), ProjectSettings.globalize_path(PATH_COPY))
	var root: Node = await OpenScene.open(get_tree(), PATH_COPY)
	for i in 10:
		await get_tree().process_frame
	root = EditorInterface.get_edited_scene_root()
	if not expect_true(root != null and root.scene_file_path == PATH_COPY, "the path scene opened"):
		return
	var chain: Node2D = root.get_node("PathChain2D")
	var bones := PATH_BONES.map(func(p): return root.get_node("Skeleton/" + p))
	var root_bone: Bone2D = bones[0]
	expect(chain.get_bone_count() == 4 and chain.last_error >= 0.0 and chain.last_error < 0.01, "the path preview fits the curve (bones %d, last_error %s, %s)" % [chain.get_bone_count(), chain.last_error, chain.get_setup_warning()])
	var previewed := bones.map(func(b): return b.rotation)
	var previewed_at := root_bone.position
	expect(previewed_at.distance_to(Vector2.ZERO) > 10.0, "the preview moved the root bone onto the curve (%s)" % previewed_at)
	expect(EditorInterface.save_scene() == OK, "save_scene() succeeded for the path scene")
	await get_tree().process_frame
	var text := FileAccess.get_file_as_string(PATH_COPY)
	for i in bones.size():
		var name: String = PATH_BONES[i].get_file()
		var saved := saved_rotation(text, name)
		expect(absf(saved - PATH_AUTHORED[i]) < 1e-5, "path bone %s saved with its authored rotation %s (saved %s)" % [name, PATH_AUTHORED[i], saved])
		expect(absf(bones[i].rotation - previewed[i]) < 1e-4, "path bone %s shows the preview again after saving" % name)
	var root_section := text.substr(text.find("[node name=\"bone_0\""), text.find("[node name=\"bone_1\"") - text.find("[node name=\"bone_0\""))
	expect(not "position = " in root_section, "the root bone saved at its authored position (the origin), not on the curve: %s" % root_section)
	expect(root_bone.position.distance_to(previewed_at) < 1e-4, "the root is back on the curve after saving (%s)" % root_bone.position)
	chain.editor_preview = false
	for i in 3:
		await get_tree().process_frame
	for i in bones.size():
		expect(absf(bones[i].rotation - PATH_AUTHORED[i]) < 1e-5, "path bone %d back at its authored rotation with the preview off (%s)" % [i, bones[i].rotation])
	expect(root_bone.position == Vector2.ZERO, "the root bone back at its authored position with the preview off (%s)" % root_bone.position)
	print("editor path round trip: saved the authored pose, root previewed at %s, back at %s with the preview off" % [previewed_at, root_bone.position])
	DirAccess.remove_absolute(ProjectSettings.globalize_path(PATH_COPY))
	# Back to the first scene, whose FabrikChain2D the editor screenshot selects.
	await OpenScene.open(get_tree(), COPY)
	for i in 5:
		await get_tree().process_frame


## FootGrounder2D writes nothing in the editor by itself: a grounded leg without a target keeps the authored pose (and
## warns of no missing target), the hips keep their position over a floor the rays hit. advance() grounds when called
## (the bake's way: the editor runs no physics, but its rays answer), and saving takes back what it wrote. The bake
## of the grounder keys its hips and legs in the editor and leaves nothing written.
func _test_grounder(root: Node, ik: Node2D) -> void:
	ik.editor_preview = false
	for i in 3:
		await get_tree().process_frame
	var bones := bones_in(root)
	var skeleton: Node2D = root.get_node("Skeleton")
	var skeleton_at := skeleton.position
	var leg: Node2D = ClassDB.instantiate("TwoBoneIk2D")
	leg.root_bone = bones[0]
	leg.tip_bone = bones[1]
	root.add_child(leg)
	var floor := StaticBody2D.new()
	floor.position = Vector2(400, 700)
	var shape := CollisionShape2D.new()
	var rect := RectangleShape2D.new()
	rect.size = Vector2(2000, 100)
	shape.shape = rect
	floor.add_child(shape)
	root.add_child(floor)
	var grounder: Node2D = ClassDB.instantiate("FootGrounder2D")
	# The ground line 30 px above the floor's top: each ray spans 590..680 and finds it.
	grounder.position = Vector2(400, 620)
	grounder.first_leg = leg
	grounder.hips = skeleton
	root.add_child(grounder)
	for i in 10:
		await get_tree().process_frame
	for i in 3:
		expect(absf(bones[i].rotation - AUTHORED[i]) < 1e-5, "grounder in the editor: bone_%d keeps its authored rotation (%s)" % [i, bones[i].rotation])
	expect(skeleton.position == skeleton_at, "grounder in the editor: the hips keep their position (%s)" % skeleton.position)
	expect(leg.get_setup_warning() == "", "a grounded leg needs no target: no warning (%s)" % leg.get_setup_warning())
	expect(grounder.advance(1.0 / 60.0), "advance() grounds when called in the editor (%s)" % grounder.get_setup_warning())
	expect(grounder.is_foot_grounded(0), "its ray finds the floor in the editor")
	expect(skeleton.position != skeleton_at, "advance() lowered the hips (%s)" % skeleton.position)
	expect(EditorInterface.save_scene() == OK, "save_scene() succeeded with the grounder's writes on")
	await get_tree().process_frame
	var text := FileAccess.get_file_as_string(COPY)
	var section := text.substr(text.find("[node name=\"Skeleton\""), 120)
	expect("position = Vector2(400, 300)" in section, "the scene saves the hips' own position, not the grounder's (%s)" % section)
	expect(skeleton.position == skeleton_at, "saving took the hips' offset back (%s)" % skeleton.position)
	# The bake of the grounder in the editor: its hips and legs keyed, nothing left written, undoable.
	var player: AnimationPlayer = root.get_node("Player")
	var library := player.get_animation_library(&"")
	var history := EditorInterface.get_editor_undo_redo()
	var Bake := preload("res://addons/reach2d/editor/bake.gd")
	var baked := Bake.bake_to_animation(grounder, player, &"reach", 0.1, &"reach_grounded", history)
	var animation: Animation = library.get_animation(&"reach_grounded") if library.has_animation(&"reach_grounded") else null
	expect(baked["ok"] and animation != null and animation.find_track(NodePath("Skeleton:position"), Animation.TYPE_VALUE) >= 0
		and animation.find_track(NodePath("Skeleton/bone_0:rotation"), Animation.TYPE_VALUE) >= 0, "the grounder bakes in the editor, keying the hips and the leg (%s)" % [baked])
	expect(skeleton.position == skeleton_at, "the bake leaves the hips where they were (%s)" % skeleton.position)
	for i in 3:
		expect(absf(bones[i].rotation - AUTHORED[i]) < 1e-5, "the bake leaves bone_%d authored (%s)" % [i, bones[i].rotation])
	history.get_history_undo_redo(history.get_object_history_id(player)).undo()
	expect(not library.has_animation(&"reach_grounded"), "undo removes the grounder's bake")
	grounder.free()
	floor.free()
	leg.free()
	ik.editor_preview = true
	for i in 3:
		await get_tree().process_frame


## LegStepper2D previews in the editor and saves nothing: its leg stands on the floor under its home (the bones move)
## while the preview leaves the body alone; advance() steps and moves the body (a bake runs it); saving stores the
## authored rotations and the body's own position and shows the preview again; turning the preview off gives the leg
## its authored pose back.
func _test_stepper(root: Node, ik: Node2D) -> void:
	ik.editor_preview = false
	for i in 3:
		await get_tree().process_frame
	var bones := bones_in(root)
	var skeleton: Node2D = root.get_node("Skeleton")
	var skeleton_at := skeleton.position
	var leg: Node2D = ClassDB.instantiate("TwoBoneIk2D")
	leg.root_bone = bones[0]
	leg.tip_bone = bones[1]
	root.add_child(leg)
	var tip: Bone2D = bones[1]
	var home := tip.global_transform * (Vector2.from_angle(tip.get_bone_angle()) * tip.get_length())
	var floor := StaticBody2D.new()
	floor.position = home + Vector2(0, 12 + 50)
	var shape := CollisionShape2D.new()
	var rect := RectangleShape2D.new()
	rect.size = Vector2(400, 100)
	shape.shape = rect
	floor.add_child(shape)
	root.add_child(floor)
	var stepper: Node2D = ClassDB.instantiate("LegStepper2D")
	root.add_child(stepper)
	stepper.legs = [leg]
	stepper.body = skeleton
	for i in 10:
		await get_tree().process_frame
	expect(stepper.get_setup_warning() == "", "stepper in the editor: no warning (%s)" % stepper.get_setup_warning())
	var goal: Vector2 = stepper.get_foot_goal(0)
	expect(goal.distance_to(home + Vector2(0, 12)) < 1e-3, "stepper preview: the foot stands on the floor under its home (%s)" % goal)
	var previewed := [bones[0].rotation, bones[1].rotation]
	expect(absf(previewed[0] - AUTHORED[0]) > 1e-3 or absf(previewed[1] - AUTHORED[1]) > 1e-3, "stepper preview: the leg reaches down to the floor (%s)" % [previewed])
	expect(skeleton.position == skeleton_at, "stepper preview: the body keeps its position")
	# advance() steps in the editor as at run time (a bake runs it): the body comes down toward the lower foot.
	expect(stepper.advance(1.0 / 60.0), "stepper: advance() steps in the editor")
	expect(skeleton.position.y > skeleton_at.y + 1.0, "advance() lowered the body (%s)" % skeleton.position)
	expect(EditorInterface.save_scene() == OK, "save_scene() with a stepper succeeded")
	await get_tree().process_frame
	var text := FileAccess.get_file_as_string(COPY)
	expect("position = Vector2(%d, %d)" % [skeleton_at.x, skeleton_at.y] in text, "the body saved at its own position %s" % skeleton_at)
	expect(skeleton.position == skeleton_at, "saving took the body's offset back (%s)" % skeleton.position)
	var saved := saved_rotations(COPY)
	for i in 2:
		expect(absf(saved[i] - AUTHORED[i]) < 1e-5, "stepper: bone_%d saved with its authored rotation (saved %s)" % [i, saved[i]])
	for i in 3:
		await get_tree().process_frame
	for i in 2:
		expect(absf(bones[i].rotation - previewed[i]) < 1e-4, "stepper: bone_%d shows the preview again after saving" % i)
	stepper.editor_preview = false
	for i in 3:
		await get_tree().process_frame
	for i in 2:
		expect(absf(bones[i].rotation - AUTHORED[i]) < 1e-5, "stepper preview off: bone_%d back at its authored rotation (%s)" % [i, bones[i].rotation])
	stepper.free()
	floor.free()
	leg.free()
	ik.editor_preview = true
	for i in 3:
		await get_tree().process_frame


func expect_true(condition: bool, message: String) -> bool:
	expect(condition, message)
	return condition


func _finish() -> void:
	DirAccess.remove_absolute(ProjectSettings.globalize_path(COPY))
	print("REACH2D_DONE")
	get_tree().quit(0)
