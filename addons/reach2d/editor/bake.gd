@tool
extends RefCounted
## Bakes a Reach2D node's IK into animation keys: samples an animation with the IK active and keys the solved local
## rotation of every bone the node drives. Works from scripts and tools without the editor plugin:
##
##     const Bake := preload("res://addons/reach2d/editor/bake.gd")
##     var result := Bake.bake_to_animation($Arm/FabrikChain2D, $AnimationPlayer, &"walk", 1.0 / 30.0)
##
## A static helper rather than a method of the nodes: it drives an AnimationPlayer and edits Animation resources
## (engine orchestration run once, never per frame), the same for all four node classes, so it stays out of the
## solver extension and its per-frame path.

## What [method bake_to_animation] returns when it baked nothing.
const FAILED := {"ok": false}


## Samples [param animation_name] of [param player] every [param step] seconds (0: the animation's own step, or
## 1/30 s when that is 0 too), from 0 to its length inclusive, with [param ik] solving after the animation at each
## sample, in order, as in a running game (a chain of 3 or more bones solves from the pose the previous sample left
## when the animation does not key its bones, starting from the bones' current rotations), and writes each driven bone's solved local rotation as linear keys of a value track
## [code]"path/to/Bone:rotation"[/code] (relative to the player's root node). Angles are unwrapped: consecutive keys
## never differ by more than PI, so the track turns the short way, like the solve.
##
## [param into]: the name of a new animation in the same library to bake into (a copy of the original, which stays
## untouched); empty bakes into the animation itself, replacing the keys of those bones' rotation tracks.
## With [param undo_redo] (an [EditorUndoRedoManager]) the change is one undoable action; without it, it is applied
## at once. The bones, the player's position and the node's preview are restored afterwards.
##
## Returns [code]{ok = true, animation = <baked name>, keys = <keys per bone>, bones = <bone count>}[/code], or
## [code]{ok = false, error = <what to do>}[/code] (also pushed as an error) when nothing was baked.
static func bake_to_animation(ik: Node2D, player: AnimationPlayer, animation_name: StringName, step := 0.0, into := &"", undo_redo: Object = null) -> Dictionary:
	if ik == null or not ik.has_method("get_bone_count"):
		return _fail("bake: pick a Reach2D IK node (FabrikChain2D, CcdChain2D, TwoBoneIk2D or LookAt2D)")
	if player == null or not player.has_animation(animation_name):
		return _fail("bake: the AnimationPlayer has no animation '%s'" % animation_name)
	var animation := player.get_animation(animation_name)
	var library := player.get_animation_library(player.find_animation_library(animation))
	var into_name := StringName(String(into).get_slice("/", String(into).get_slice_count("/") - 1))
	if into != &"" and library.has_animation(into_name):
		return _fail("bake: the animation '%s' already exists; pick another name or bake into the animation itself" % into)
	if step <= 0.0:
		step = animation.step if animation.step > 0.0 else 1.0 / 30.0
	var root := player.get_node_or_null(player.root_node)
	if root == null:
		return _fail("bake: the AnimationPlayer's root_node does not resolve")
	var preview: bool = ik.editor_preview
	ik.editor_preview = false  # in the editor: puts the user's own rotations back, so they are what we restore
	var bones := driven_bones(ik)
	var authored := []
	for bone in bones:
		authored.append(bone.rotation)
	var can_solve: bool = not bones.is_empty() and ik.solve()
	for b in bones.size():
		bones[b].rotation = authored[b]  # the check solved: the samples start from the user's pose
	if not can_solve:
		ik.editor_preview = preview
		return _fail("bake: %s cannot solve: %s" % [ik.name, ik.get_setup_warning()])
	var was_assigned := player.assigned_animation
	var was_position := player.current_animation_position if was_assigned != "" else 0.0
	var was_playing := player.is_playing()
	if was_playing:
		player.pause()

	# Sample: animation first, then the solve, as in a running game.
	var times := PackedFloat64Array()
	var count := int(floor(animation.length / step + 1e-6))
	for i in count + 1:
		times.append(i * step)
	if animation.length - times[-1] > 1e-6:
		times.append(animation.length)
	var values := []  # per bone: PackedFloat64Array of unwrapped rotations
	for bone in bones:
		values.append(PackedFloat64Array())
	player.assigned_animation = animation_name
	var solved_all := true
	for t in times:
		player.seek(t, true)
		solved_all = ik.solve() and solved_all
		for b in bones.size():
			var angle: float = bones[b].rotation
			var keys: PackedFloat64Array = values[b]
			if not keys.is_empty():
				angle = keys[-1] + angle_difference(keys[-1], angle)
			keys.append(angle)
			values[b] = keys

	if not solved_all:
		_restore(player, was_assigned, was_position, was_playing, ik, preview, bones, authored)
		return _fail("bake: %s could not solve at every sample: %s" % [ik.name, ik.get_setup_warning()])

	var baked := animation.duplicate(true) as Animation
	for b in bones.size():
		var path := NodePath(String(root.get_path_to(bones[b])) + ":rotation")
		var track := baked.find_track(path, Animation.TYPE_VALUE)
		if track < 0:
			track = baked.add_track(Animation.TYPE_VALUE)
			baked.track_set_path(track, path)
		while baked.track_get_key_count(track) > 0:
			baked.track_remove_key(track, 0)
		baked.value_track_set_update_mode(track, Animation.UPDATE_CONTINUOUS)
		baked.track_set_interpolation_type(track, Animation.INTERPOLATION_LINEAR)
		var keys: PackedFloat64Array = values[b]
		for i in times.size():
			baked.track_insert_key(track, times[i], keys[i])

	var helper := new()
	var baked_name := animation_name
	if into != &"":
		baked_name = into_name if String(player.find_animation_library(animation)) == "" else StringName("%s/%s" % [player.find_animation_library(animation), into_name])
		if undo_redo != null:
			undo_redo.create_action("Bake IK into animation '%s'" % baked_name, UndoRedo.MERGE_DISABLE, player)
			undo_redo.add_do_method(library, &"add_animation", into_name, baked)
			undo_redo.add_undo_method(library, &"remove_animation", into_name)
			undo_redo.add_do_reference(baked)
			undo_redo.commit_action()
		else:
			library.add_animation(into_name, baked)
	else:
		var before := animation.duplicate(true) as Animation
		if undo_redo != null:
			undo_redo.create_action("Bake IK into animation '%s'" % baked_name, UndoRedo.MERGE_DISABLE, player)
			undo_redo.add_do_method(helper, &"assign", animation, baked)
			undo_redo.add_undo_method(helper, &"assign", animation, before)
			undo_redo.commit_action()
		else:
			helper.assign(animation, baked)
	_restore(player, was_assigned, was_position, was_playing, ik, preview, bones, authored)
	return {"ok": true, "animation": baked_name, "keys": times.size(), "bones": bones.size()}


## The Bone2D nodes [param ik] drives, root first: [code]root_bone[/code] down to [code]tip_bone[/code], or its one
## [code]bone[/code]. Empty when they are not set.
static func driven_bones(ik: Node) -> Array[Bone2D]:
	var out: Array[Bone2D] = []
	if "bone" in ik:
		if ik.bone != null:
			out.append(ik.bone)
		return out
	var root: Bone2D = ik.root_bone
	var node: Node = ik.tip_bone
	while node is Bone2D:
		out.push_front(node)
		if node == root:
			return out
		node = node.get_parent()
	out.clear()  # the tip is not below the root
	return out


## Makes [param target] hold [param source]'s tracks and timing, keeping [param target] the same resource (scenes
## and libraries that refer to it keep doing so). Used to apply and undo a bake into the animation itself.
func assign(target: Animation, source: Animation) -> void:
	target.clear()
	for i in source.get_track_count():
		source.copy_track(i, target)
	target.length = source.length
	target.loop_mode = source.loop_mode
	target.step = source.step
	target.emit_changed()


## Gives the user back what they had before the bake: the player's animation and position (the new keys apply if
## it plays the baked animation), then the bones' own rotations and the node's preview.
static func _restore(player: AnimationPlayer, assigned: StringName, position: float, playing: bool, ik: Node2D, preview: bool, bones: Array[Bone2D], authored: Array) -> void:
	if assigned != &"":
		player.assigned_animation = assigned
		player.seek(position, true)
	if playing:
		player.play()
	for b in bones.size():
		bones[b].rotation = authored[b]
	ik.editor_preview = preview


static func _fail(message: String) -> Dictionary:
	push_error(message)
	var out := FAILED.duplicate()
	out["error"] = message
	return out
