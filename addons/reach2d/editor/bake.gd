@tool
extends RefCounted
## Bakes a Reach2D node's IK into animation keys: samples an animation with the IK active and keys the solved local
## rotation of every bone the node drives. Works from scripts and tools without the editor plugin:
##
##     const Bake := preload("res://addons/reach2d/editor/bake.gd")
##     var result := Bake.bake_to_animation($Arm/FabrikChain2D, $AnimationPlayer, &"walk", 1.0 / 30.0)
##
## A static helper rather than a method of the nodes: it drives an AnimationPlayer and edits Animation resources
## (engine orchestration run once, never per frame), the same for every node class, so it stays out of the solver
## extension and its per-frame path.

## What [method bake_to_animation] returns when it baked nothing.
const FAILED := {"ok": false}
## The node classes a bake drives.
const CLASSES: Array[String] = ["FabrikChain2D", "CcdChain2D", "TwoBoneIk2D", "LookAt2D", "SpringChain2D", "CopyTransform2D"]
## The most samples one bake takes (each seeks the animation and solves): a tiny step fails with a message instead
## of freezing the editor.
const MAX_SAMPLES := 20000
## A bone whose local position moved by more than this (px) during the bake gets position keys too.
const POSITION_EPSILON := 1e-4
## A bone whose local scale changed by more than this during the bake gets scale keys too.
const SCALE_EPSILON := 1e-6


## Samples [param animation_name] of [param player] every [param step] seconds (0: the animation's own step, or
## 1/30 s when that is 0 too; at most [constant MAX_SAMPLES] samples), from 0 to its length inclusive, with
## [param ik] solving after the animation at each sample, in order, as in a running game (a chain of 3 or more bones
## solves from the pose the previous sample left when the animation does not key its bones, starting from the bones'
## current rotations; a [code]SpringChain2D[/code] starts at rest on the first sample's pose and is advanced by the
## time between samples), and writes each driven bone's solved local rotation as linear keys of a value track
## [code]"path/to/Bone:rotation"[/code] (relative to the player's root node). Angles are unwrapped: consecutive keys
## never differ by more than PI, so the track turns the short way, like the solve. A bone whose local
## [code]position[/code] the node moved (a [code]TwoBoneIk2D[/code] with [code]stretch[/code] or
## [code]compress[/code], a [code]CopyTransform2D[/code] copying the position) gets [code]"path/to/Bone:position"[/code]
## keys too, so the replay reaches as far, and one whose [code]scale[/code] it changed (a [code]CopyTransform2D[/code]
## copying the scale) [code]"path/to/Bone:scale"[/code] keys. A [code]CopyTransform2D[/code] whose
## [code]rotation_amount[/code] is 0 gets no rotation keys: it keys what it writes.
##
## [param into]: the name of a new animation in the same library to bake into (a copy of the original, which stays
## untouched); empty bakes into the animation itself, replacing the keys of those bones' rotation tracks.
## With [param undo_redo] (an [EditorUndoRedoManager]) the change is one undoable action; without it, it is applied
## at once. The bones, the player's position and the node's preview are restored afterwards.
##
## Returns [code]{ok = true, animation = <baked name>, keys = <keys per bone>, bones = <bone count>}[/code], or
## [code]{ok = false, error = <what to do>}[/code] (also pushed as an error) when nothing was baked.
static func bake_to_animation(ik: Variant, player: Variant, animation_name: StringName, step := 0.0, into := &"", undo_redo: Object = null) -> Dictionary:
	if not is_instance_valid(ik) or not ik.get_class() in CLASSES:
		return _fail("bake: pick a Reach2D node (%s)" % ", ".join(CLASSES))
	if not is_instance_valid(player) or not player is AnimationPlayer:
		return _fail("bake: pick the AnimationPlayer that plays the animation to bake")
	if not player.has_animation(animation_name):
		return _fail("bake: the AnimationPlayer has no animation '%s'" % animation_name)
	if not is_finite(step) or step < 0.0:
		return _fail("bake: step is %s; give a time in seconds above 0 (or 0 for the animation's own step)" % step)
	var animation: Animation = player.get_animation(animation_name)
	var library: AnimationLibrary = player.get_animation_library(player.find_animation_library(animation))
	var into_name := StringName(String(into).get_slice("/", String(into).get_slice_count("/") - 1))
	if into != &"" and library.has_animation(into_name):
		return _fail("bake: the animation '%s' already exists; pick another name or bake into the animation itself" % into)
	if step == 0.0:
		step = animation.step if animation.step > 0.0 else 1.0 / 30.0
	if animation.length / step + 1.0 > MAX_SAMPLES:
		return _fail("bake: a step of %s s samples '%s' (%.3f s) more than %d times; use a larger step" % [step, animation_name, animation.length, MAX_SAMPLES])
	var root: Node = player.get_node_or_null(player.root_node)
	if root == null:
		return _fail("bake: the AnimationPlayer's root_node does not resolve")
	var preview: bool = ik.editor_preview
	ik.editor_preview = false  # in the editor: puts the user's own rotations back, so they are what we restore
	var bones := driven_bones(ik)
	var authored := []  # per bone: [rotation, position, scale]
	for bone in bones:
		authored.append([bone.rotation, bone.position, bone.scale])
	var keys_rotation: bool = not "rotation_amount" in ik or ik.rotation_amount > 0.0
	var spring: bool = ik.has_method("advance")
	var can_solve: bool = not bones.is_empty() and (ik.advance(0.0) if spring else ik.solve())
	_put_back(bones, authored)  # the check solved: the samples start from the user's pose
	if not can_solve:
		ik.editor_preview = preview
		return _fail("bake: %s cannot solve: %s" % [ik.name, ik.get_setup_warning()])
	var was_assigned: StringName = player.assigned_animation
	# Only a playing or paused animation has a position; a stopped one starts over at 0.
	var was_position: float = player.current_animation_position if player.current_animation != "" else 0.0
	var was_playing: bool = player.is_playing()
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
	var positions := []  # per bone: PackedVector2Array of local positions
	var moved := []  # per bone: whether the node moved its position at some sample
	var scales := []  # per bone: PackedVector2Array of local scales
	var scaled := []  # per bone: whether the node changed its scale at some sample
	for bone in bones:
		values.append(PackedFloat64Array())
		positions.append(PackedVector2Array())
		moved.append(false)
		scales.append(PackedVector2Array())
		scaled.append(false)
	player.assigned_animation = animation_name
	var solved_all := true
	var previous_time := 0.0
	for t in times:
		player.seek(t, true)
		if spring:
			if t == 0.0:
				ik.reset()  # at rest on the first sample's pose, as when a scene starts
			solved_all = ik.advance(t - previous_time) and solved_all
			previous_time = t
		else:
			solved_all = ik.solve() and solved_all
		for b in bones.size():
			var angle: float = bones[b].rotation
			var keys: PackedFloat64Array = values[b]
			if not keys.is_empty():
				angle = keys[-1] + angle_difference(keys[-1], angle)
			keys.append(angle)
			values[b] = keys
			var at: PackedVector2Array = positions[b]
			at.append(bones[b].position)
			positions[b] = at
			moved[b] = moved[b] or bones[b].position.distance_to(authored[b][1]) > POSITION_EPSILON
			var sized: PackedVector2Array = scales[b]
			sized.append(bones[b].scale)
			scales[b] = sized
			scaled[b] = scaled[b] or bones[b].scale.distance_to(authored[b][2]) > SCALE_EPSILON

	if not solved_all:
		_restore(player, was_assigned, was_position, was_playing, ik, preview, bones, authored)
		return _fail("bake: %s could not solve at every sample: %s" % [ik.name, ik.get_setup_warning()])

	var baked := animation.duplicate(true) as Animation
	for b in bones.size():
		var bone_path := String(root.get_path_to(bones[b]))
		if keys_rotation:
			_key_track(baked, NodePath(bone_path + ":rotation"), times, values[b])
		if moved[b]:
			_key_track(baked, NodePath(bone_path + ":position"), times, positions[b])
		if scaled[b]:
			_key_track(baked, NodePath(bone_path + ":scale"), times, scales[b])

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


## Replaces [param path]'s value track in [param animation] (made if missing) with linear keys of [param keys] (one
## value per time) at [param times].
static func _key_track(animation: Animation, path: NodePath, times: PackedFloat64Array, keys: Variant) -> void:
	var track := animation.find_track(path, Animation.TYPE_VALUE)
	if track < 0:
		track = animation.add_track(Animation.TYPE_VALUE)
		animation.track_set_path(track, path)
	while animation.track_get_key_count(track) > 0:
		animation.track_remove_key(track, 0)
	animation.value_track_set_update_mode(track, Animation.UPDATE_CONTINUOUS)
	animation.track_set_interpolation_type(track, Animation.INTERPOLATION_LINEAR)
	for i in times.size():
		animation.track_insert_key(track, times[i], keys[i])


## The Bone2D nodes [param ik] drives, root first: [code]root_bone[/code] down to [code]tip_bone[/code], or its one
## [code]bone[/code]. Empty when they are not set.
static func driven_bones(ik: Object) -> Array[Bone2D]:
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
static func _restore(player: AnimationPlayer, assigned: StringName, position: float, playing: bool, ik: Object, preview: bool, bones: Array[Bone2D], authored: Array) -> void:
	if assigned != &"":
		player.assigned_animation = assigned
		player.seek(position, true)
	if playing:
		player.play()
	_put_back(bones, authored)
	ik.editor_preview = preview


## Gives each bone back its [code][rotation, position, scale][/code] from [param authored].
static func _put_back(bones: Array[Bone2D], authored: Array) -> void:
	for b in bones.size():
		bones[b].rotation = authored[b][0]
		bones[b].position = authored[b][1]
		bones[b].scale = authored[b][2]


static func _fail(message: String) -> Dictionary:
	push_error(message)
	var out := FAILED.duplicate()
	out["error"] = message
	return out
