@tool
extends RefCounted
## Bakes Reach2D's nodes into animation keys: plays an animation through with the nodes running as in the game and keys
## everything they write, so that the animation replays their pose with the nodes off. Works from scripts and tools
## without the editor plugin:
##
##     const Bake := preload("res://addons/reach2d/editor/bake.gd")
##     # One node (a FootGrounder2D bakes with its legs, feet and hips, a LegStepper2D with its legs and body):
##     var result := Bake.bake_to_animation($Arm/FabrikChain2D, $AnimationPlayer, &"walk", 1.0 / 30.0)
##     # Every Reach2D node of a character, in the order the game runs them:
##     result = Bake.bake_character($Character, $AnimationPlayer, &"walk", 1.0 / 60.0, &"walk_baked")
##
## A static helper rather than a method of the nodes: it drives an AnimationPlayer and edits Animation resources
## (engine orchestration run once, never per frame), the same for every node class, so it stays out of the solver
## extension and its per-frame path.

## What a bake returns when it baked nothing.
const FAILED := {"ok": false}
## The nodes that solve toward targets. At run time those at the default process priority run in one batch, in tree
## order, each exactly as its own solve() (Reach2D.solve_all is that batch by hand).
const IK_CLASSES: Array[String] = ["FabrikChain2D", "CcdChain2D", "TwoBoneIk2D", "LookAt2D", "FabrikRig2D", "PathChain2D", "CopyTransform2D"]
const GROUNDER := "FootGrounder2D"
const STEPPER := "LegStepper2D"
const SPRING := "SpringChain2D"
const COPY := "CopyTransform2D"
## The helper nodes that drive legs (each solves its legs itself, toward goals it hands them).
const HELPERS: Array[String] = ["FootGrounder2D", "LegStepper2D"]
## Every node class a bake runs.
const CLASSES: Array[String] = ["FabrikChain2D", "CcdChain2D", "TwoBoneIk2D", "LookAt2D", "FabrikRig2D", "PathChain2D", "CopyTransform2D", "SpringChain2D", "FootGrounder2D", "LegStepper2D"]
## The process priorities the nodes take at run time when left at 0 (rust/reach2d/src/runtime/frame.rs): the IK nodes, the
## grounder and the stepper RUNTIME_PROCESS_PRIORITY, the springs SPRING_PROCESS_PRIORITY. The batch runs at the first, after every
## node of the scene at that priority (it is an internal child at the back of the tree's root).
const RUNTIME_PRIORITY := 100
const SPRING_PRIORITY := 110
## What can be baked, and how: every refusal ends with it.
const WHAT_CAN_BE_BAKED := "bake one node with bake_to_animation (a FabrikChain2D, CcdChain2D, TwoBoneIk2D, LookAt2D, FabrikRig2D, PathChain2D, CopyTransform2D or SpringChain2D, a FootGrounder2D with its legs, feet and hips, or a LegStepper2D with its legs and body), or every Reach2D node of a character together with bake_character(root, ...) (the inspector's 'Whole character' option)"
## The most samples one bake takes (each seeks the animation and solves): a tiny step fails with a message instead
## of freezing the editor.
const MAX_SAMPLES := 20000
## A node or bone whose local position moved by more than this (px) during the bake gets position keys too.
const POSITION_EPSILON := 1e-4
## A bone whose local scale changed by more than this during the bake gets scale keys too.
const SCALE_EPSILON := 1e-6


## Bakes one node: [param node] (any of [constant CLASSES]) runs after the animation at each sample, and what it
## writes is keyed; see [method bake_character] for the sampling, the keys, [param into], [param undo_redo] and the
## result. A FootGrounder2D bakes with its legs, feet and hips, a LegStepper2D with its legs and its body. Refused: a
## leg an enabled FootGrounder2D or LegStepper2D drives (its own solve would key the plain animation, not the grounded
## or stepping pose: bake its helper). A node whose bones hang off bones another Reach2D node drives bakes as if that
## node did not run; the result's notes say so (bake the whole character instead).
static func bake_to_animation(node: Variant, player: Variant, animation_name: StringName, step := 0.0, into := &"", undo_redo: Object = null) -> Dictionary:
	if not is_instance_valid(node) or not node is Node or not node.get_class() in CLASSES:
		return _fail("bake: pick a Reach2D node; " + WHAT_CAN_BE_BAKED)
	var grounder := grounder_of(node)
	if grounder != null:
		return _fail("bake: %s is a leg of the FootGrounder2D %s, which solves it toward the ground at run time (baked alone it would key the plain animation): bake %s (it keys its legs, feet and hips) or the whole character with bake_character" % [node.name, grounder.name, grounder.name])
	var stepper := stepper_of(node)
	if stepper != null:
		return _fail("bake: %s is a leg of the LegStepper2D %s, which solves it toward its planted and stepping foot at run time (baked alone it would key the plain animation): bake %s (it keys its legs and body) or the whole character with bake_character" % [node.name, stepper.name, stepper.name])
	return _bake([[_stage_kind(node, false), [node]]], player, animation_name, step, into, undo_redo, _hangs_off_notes(node))


## Bakes every enabled Reach2D node under [param root] (and [param root] itself if it is one) together: at each
## sample, [param animation_name] of [param player] is applied, then the nodes run in the order the game runs them
## (process priority, then tree order; at the default priorities: every FootGrounder2D, which grounds its legs and
## lowers the hips, and every LegStepper2D, which steps its legs and raises and tilts the body, in tree order; then
## the batch of IK nodes, FabrikRig2D included, in tree order; then every SpringChain2D, after them at priority 110).
## A disabled node does not run in the game and is not baked (a note says so); a leg an enabled grounder or stepper
## names is solved by it.
##
## The animation is sampled every [param step] seconds (0: the animation's own step, or 1/30 s when that is 0 too;
## at most [constant MAX_SAMPLES] samples), from 0 to its length inclusive, in order, from the pose the nodes work
## from, never their own output (in the editor the scene's own; in a running game the animated or scene pose, which
## each node writes by solving once at weight 0), posed by the animation at its start, every node started afresh
## ([code]reset()[/code], as a node just added: nothing of a live run or an earlier bake carries over, so bakes
## repeat): a grounder from no smoothing, a stepper plants every foot at its home (read from the first sample's pose,
## as on the game's first frame) and its gait starts over, a chain from the pose it finds, a spring rests on the first
## sample's pose; the first sample advances them by one step (the game's first frame has a frame's
## time too), each later one by the time between samples. Then each thing a node wrote gets linear keys on
## a value track (paths relative to the player's root node): every driven bone's [code]rotation[/code] (unwrapped:
## consecutive keys never differ by more than PI, so the track turns the short way, like the solve), and the
## [code]position[/code] of a bone or node that moved (a stretching TwoBoneIk2D's tip bone, a PathChain2D's root in
## follow mode, a CopyTransform2D's bone, the grounder's hips, the stepper's body), the [code]rotation[/code] of a
## stepper's body, and the [code]scale[/code] of a bone whose scale changed (a CopyTransform2D copying the scale); a
## CopyTransform2D whose rotation_amount is 0 gets no rotation keys.
## Replayed with the nodes off, the animation gives their pose at every key.
##
## [param into]: the name of a new animation in the same library to bake into (a copy of the original, which stays
## untouched); empty bakes into the animation itself, replacing the keys of the baked tracks. With [param undo_redo]
## (an [EditorUndoRedoManager]) the change is one undoable action; without it, it is applied at once. Afterwards the
## player's position, the pose the bake started from (bones, hips and bodies) and the nodes' previews are given back,
## and the springs rest on that pose.
##
## Returns [code]{ok = true, animation = <baked name>, keys = <samples per track>, bones = <bones keyed>, tracks =
## <tracks written>, nodes = <names of the nodes baked, in run order>, notes}[/code], or [code]{ok = false, error =
## <what to do>}[/code] (also pushed as an error) when nothing was baked.
static func bake_character(root: Variant, player: Variant, animation_name: StringName, step := 0.0, into := &"", undo_redo: Object = null) -> Dictionary:
	if not is_instance_valid(root) or not root is Node:
		return _fail("bake: pick the character's root node (every Reach2D node under it is baked); or " + WHAT_CAN_BE_BAKED)
	var found := character_nodes(root)
	if found["stages"].is_empty():
		return _fail("bake: no enabled Reach2D node under %s; %s" % [root.name, WHAT_CAN_BE_BAKED])
	return _bake(found["stages"], player, animation_name, step, into, undo_redo, found["notes"])


## The enabled Reach2D nodes under [param root] ([param root] included) grouped as the game runs them:
## [code]{stages = [[kind, [nodes]], ...], notes}[/code] in run order, [code]kind[/code] one of
## [code]"batch"[/code] (IK nodes solved together, in tree order), [code]"solve"[/code] (an IK node at a priority
## of its own), [code]"grounder"[/code], [code]"stepper"[/code] or [code]"spring"[/code]. Legs an enabled grounder
## or stepper names are left to it; disabled nodes are left out with a note.
static func character_nodes(root: Node) -> Dictionary:
	var candidates: Array[Node] = []
	if root.get_class() in CLASSES:
		candidates.append(root)
	for node in root.find_children("*", "", true, false):
		if node.get_class() in CLASSES:
			candidates.append(node)
	var legs := {}
	for node in candidates:
		if node.get_class() in HELPERS and node.enabled:
			for leg in _legs(node):
				legs[leg] = node
	var notes := PackedStringArray()
	var entries := []  # [priority, 1 for the batch (after the scene's nodes of its priority), tree index, node]
	for i in candidates.size():
		var node := candidates[i]
		if not node.enabled:
			notes.append("%s (%s) is disabled: it does not run in the game, so it is not baked" % [node.name, node.get_class()])
			continue
		if legs.has(node):
			continue
		var batched := _runs_in_batch(node)
		entries.append([run_priority(node), 1 if batched else 0, i, node])
	entries.sort_custom(func(a, b): return a[0] < b[0] or (a[0] == b[0] and (a[1] < b[1] or (a[1] == b[1] and a[2] < b[2]))))
	var stages := []
	for entry in entries:
		var kind := _stage_kind(entry[3], entry[1] == 1)
		if kind == "batch" and not stages.is_empty() and stages[-1][0] == "batch":
			stages[-1][1].append(entry[3])
		else:
			stages.append([kind, [entry[3]]])
	return {"stages": stages, "notes": notes}


## The process priority [param node] runs at in the game: its own, or the one it takes when left at 0.
static func run_priority(node: Node) -> int:
	if node.process_priority != 0:
		return node.process_priority
	return SPRING_PRIORITY if node.get_class() == SPRING else RUNTIME_PRIORITY


## The enabled FootGrounder2D in [param node]'s scene tree that names it as a leg, or [code]null[/code].
static func grounder_of(node: Node) -> Node:
	return _helper_of(node, GROUNDER)


## The enabled LegStepper2D in [param node]'s scene tree that names it as a leg, or [code]null[/code].
static func stepper_of(node: Node) -> Node:
	return _helper_of(node, STEPPER)


## The enabled helper of [param helper_class] in [param node]'s scene tree that names it as a leg, or
## [code]null[/code].
static func _helper_of(node: Node, helper_class: String) -> Node:
	if not node.get_class() in ["TwoBoneIk2D", "FabrikChain2D", "CcdChain2D"] or not node.is_inside_tree():
		return null
	for helper in _scene_of(node).find_children("*", helper_class, true, false):
		if helper.enabled and node in _legs(helper):
			return helper
	return null


## The Bone2D nodes [param ik] drives, root first: [code]root_bone[/code] down to [code]tip_bone[/code], its one
## [code]bone[/code], or a FabrikRig2D's bones in its own order (resolved by checking its setup). Empty when they are
## not set.
static func driven_bones(ik: Object) -> Array[Bone2D]:
	var out: Array[Bone2D] = []
	if "bone" in ik:
		if ik.bone != null:
			out.append(ik.bone)
		return out
	if ik.has_method("get_rig_bone"):
		if ik.get_bone_count() == 0:
			ik.get_setup_warning()  # checks the setup now, which resolves the rig's bones
		for i in ik.get_bone_count():
			out.append(ik.get_rig_bone(i))
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


## What [param node] writes, as [code][object, property][/code] pairs: each driven bone's rotation and position (a
## stretching TwoBoneIk2D moves its tip bone), a spring's rotations, a CopyTransform2D's bone's rotation (unless its
## rotation_amount is 0), position and scale, for a grounder its legs', its feet's rotations and its hips' position,
## and for a stepper its legs' and its body's position and rotation. A position or scale is keyed only when the bake
## moved it.
static func written_properties(node: Node) -> Array:
	var out := []
	var bones: Array = []
	match node.get_class():
		SPRING:
			for bone in driven_bones(node):
				out.append([bone, &"rotation"])
			return out
		COPY:
			var bone: Node = node.bone
			if is_instance_valid(bone):
				if node.rotation_amount > 0.0:
					out.append([bone, &"rotation"])
				out.append([bone, &"position"])
				out.append([bone, &"scale"])
			return out
		GROUNDER:
			for leg in _legs(node):
				bones.append_array(driven_bones(leg))
			for foot in [node.first_foot, node.second_foot]:
				if is_instance_valid(foot):
					out.append([foot, &"rotation"])
			if is_instance_valid(node.hips):
				out.append([node.hips, &"position"])
		STEPPER:
			for leg in _legs(node):
				bones.append_array(driven_bones(leg))
			if is_instance_valid(node.body):
				out.append([node.body, &"rotation"])
				out.append([node.body, &"position"])
		_:
			bones = driven_bones(node)
	for bone in bones:
		out.append([bone, &"rotation"])
		out.append([bone, &"position"])
	return out


## The shared body of both bakes: [param stages] as [method character_nodes] gives them.
static func _bake(stages: Array, player: Variant, animation_name: StringName, step: float, into: StringName, undo_redo: Object, notes: PackedStringArray) -> Dictionary:
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

	var nodes := []  # every node that runs, its grounders' and steppers' legs too
	for stage in stages:
		for node in stage[1]:
			nodes.append(node)
			if node.get_class() in HELPERS:
				nodes.append_array(_legs(node))
	# In the editor: the previews put the user's own pose back, and stay off while the bake runs the nodes.
	var previews := {}
	for node in nodes:
		if "editor_preview" in node:
			previews[node] = node.editor_preview
			node.editor_preview = false
	_unwind(stages)
	var start := _snapshot(nodes)  # the pose to start from and to give back
	var failed := _check(stages, step)
	_put_back(start)
	_let_go(stages)
	if not failed.is_empty():
		_put_previews_back(previews)
		return _fail("bake: %s; fix the setup, or leave the node out (disable it)" % "; ".join(failed))
	var properties := []  # [object, property], each once
	var seen := {}
	for node in nodes:
		for property in written_properties(node):
			var key := "%d:%s" % [property[0].get_instance_id(), property[1]]
			if not seen.has(key):
				seen[key] = true
				properties.append(property)

	var was_assigned: StringName = player.assigned_animation
	# Only a playing or paused animation has a position; a stopped one starts over at 0.
	var was_position: float = player.current_animation_position if player.current_animation != "" else 0.0
	var was_playing: bool = player.is_playing()
	if was_playing:
		player.pause()

	var times := PackedFloat64Array()
	var count := int(floor(animation.length / step + 1e-6))
	for i in count + 1:
		times.append(i * step)
	if animation.length - times[-1] > 1e-6:
		times.append(animation.length)
	var values := []  # per property: the value at each sample (rotations unwrapped)
	for property in properties:
		values.append([])
	player.assigned_animation = animation_name
	var solved_all := true
	var previous := 0.0
	for t in times:
		player.seek(t, true)
		var first := t == times[0]
		solved_all = _run(stages, step if first else t - previous, first) and solved_all
		previous = t
		for p in properties.size():
			var value: Variant = properties[p][0].get(properties[p][1])
			if properties[p][1] == &"rotation" and not values[p].is_empty():
				value = values[p][-1] + angle_difference(values[p][-1], value)
			values[p].append(value)

	if not solved_all:
		_restore(player, was_assigned, was_position, was_playing, stages, previews, start)
		var why := PackedStringArray()
		for node in nodes:
			if node.get_setup_warning() != "":
				why.append("%s: %s" % [node.name, node.get_setup_warning()])
		return _fail("bake: not every node solved at every sample (%s)" % "; ".join(why))

	var baked := animation.duplicate(true) as Animation
	var bones := {}
	var tracks := 0
	for p in properties.size():
		var object: Node = properties[p][0]
		var keys: Array = values[p]
		var kept := {&"position": [1, POSITION_EPSILON], &"scale": [2, SCALE_EPSILON]}.get(properties[p][1])
		if kept != null:
			var from: Vector2 = start[object][kept[0]] if start.has(object) else keys[0]
			if not keys.any(func(value: Vector2) -> bool: return value.distance_to(from) > kept[1]):
				continue
		_key_track(baked, NodePath("%s:%s" % [root.get_path_to(object), properties[p][1]]), times, keys)
		tracks += 1
		if object is Bone2D:
			bones[object] = true

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
		var previous_keys := animation.duplicate(true) as Animation
		if undo_redo != null:
			undo_redo.create_action("Bake IK into animation '%s'" % baked_name, UndoRedo.MERGE_DISABLE, player)
			undo_redo.add_do_method(helper, &"assign", animation, baked)
			undo_redo.add_undo_method(helper, &"assign", animation, previous_keys)
			undo_redo.commit_action()
		else:
			helper.assign(animation, baked)
	_restore(player, was_assigned, was_position, was_playing, stages, previews, start)
	for note in notes:
		push_warning("Reach2D: " + note)
	var names := PackedStringArray()
	for stage in stages:
		for node in stage[1]:
			names.append(node.name)
	return {"ok": true, "animation": baked_name, "keys": times.size(), "bones": bones.size(), "tracks": tracks, "nodes": names, "notes": notes}


## Runs every stage once, as one frame of the game that took [param delta] seconds ([param first]: the first sample,
## where the springs are first put at rest on the pose the animation just set, and the steppers read their homes from
## it and plant every foot there, as on the game's first frame). Returns [code]true[/code] when every node solved.
static func _run(stages: Array, delta: float, first: bool) -> bool:
	var ok := true
	if first:
		_reset(stages)
	for stage in stages:
		for node in stage[1]:
			match stage[0]:
				"grounder":
					ok = node.advance(delta) and ok
				"stepper":
					if first:
						node.capture_homes()
					ok = node.advance(delta) and ok
				"spring":
					ok = node.advance(delta) and ok
				_:
					# The batch: each node's own solve() in tree order, as Reach2D.solve_all and the batcher do.
					ok = node.solve() and ok
	return ok


## Every node of [param stages], the grounders' and steppers' legs too, starts afresh ([code]reset()[/code]): as a
## node just added, nothing it kept from earlier solves (a live run, an earlier bake, the setup check) carries into
## the next one. So every bake starts every node from the same state, and gives the same keys whatever ran before.
static func _reset(stages: Array) -> void:
	for stage in stages:
		for node in stage[1]:
			node.reset()
			if node.get_class() in HELPERS:
				for leg in _legs(node):
					leg.reset()


## Runs every node once (a grounder or a stepper by [param step]); returns "name: why" for each that cannot solve.
static func _check(stages: Array, step: float) -> PackedStringArray:
	var failed := PackedStringArray()
	for stage in stages:
		for node in stage[1]:
			var ok: bool
			match stage[0]:
				"grounder", "stepper":
					ok = node.advance(step)
				"spring":
					ok = node.advance(0.0)
				_:
					ok = node.solve()
			if not ok:
				failed.append("%s cannot solve: %s" % [node.name, node.get_setup_warning()])
	return failed


## The run-time stage of [param node]: "batch" when it joins the batch, "solve" (an IK node by itself), "grounder",
## "stepper", "spring".
static func _stage_kind(node: Node, batched: bool) -> String:
	match node.get_class():
		GROUNDER:
			return "grounder"
		STEPPER:
			return "stepper"
		SPRING:
			return "spring"
	return "batch" if batched else "solve"


## [code]true[/code] when [param node] runs in the batch at run time: an IK node at the default process and physics
## priorities.
static func _runs_in_batch(node: Node) -> bool:
	if not node.get_class() in IK_CLASSES:
		return false
	var physics: int = node.process_physics_priority if node.process_physics_priority != 0 else RUNTIME_PRIORITY
	return run_priority(node) == RUNTIME_PRIORITY and physics == RUNTIME_PRIORITY


## The outermost scene [param node] belongs to (its owners' owner; in the editor the edited scene), or the tree's
## root for a node made in code: where the nodes that act on it are searched.
static func _scene_of(node: Node) -> Node:
	if node.owner == null:
		return node.get_tree().root
	var top: Node = node.owner
	while top.owner != null:
		top = top.owner
	return top


## A grounder's or a stepper's legs that are set and alive.
static func _legs(helper: Node) -> Array:
	var legs: Array = Array(helper.legs) if helper.get_class() == STEPPER else [helper.first_leg, helper.second_leg]
	return legs.filter(func(leg): return is_instance_valid(leg))


## Puts every node of [param stages] back on the pose it works from, never its own output: a grounder or a stepper
## takes back what it wrote and starts afresh; in the editor each other node and each leg puts the user's authored
## pose back (what it does before the scene is saved; turning the preview off does it only at the next frame); in a
## running game each other node solves once at weight 0, which writes the pose it blends from (the animated or scene
## pose: its bones may still hold its last result), and each grounder or stepper advances once by 0 s with its legs at
## weight 0, which writes the pose its legs blend from (legs no animation keys still hold the helper's last result:
## snapshotted as they are, they would look like a pose someone else gave them), and lets go again.
static func _unwind(stages: Array) -> void:
	_let_go(stages)
	for stage in stages:
		if stage[0] in ["grounder", "stepper"]:
			for helper in stage[1]:
				if Engine.is_editor_hint():
					for leg in _legs(helper):
						leg.notification(Node.NOTIFICATION_EDITOR_PRE_SAVE)
					continue
				var weights := {}
				for leg in _legs(helper):
					weights[leg] = leg.weight
					leg.weight = 0.0
				helper.advance(0.0)
				for leg in weights:
					leg.weight = weights[leg]
				helper.enabled = false
				helper.enabled = true
			continue
		for node in stage[1]:
			if Engine.is_editor_hint():
				node.notification(Node.NOTIFICATION_EDITOR_PRE_SAVE)
				continue
			var weight: float = node.weight
			node.weight = 0.0
			if stage[0] == "spring":
				node.advance(0.0)
			else:
				node.solve()
			node.weight = weight


## Every grounder and stepper of [param stages] takes back what it wrote and forgets its smoothing and its feet
## (disabled and enabled again): it starts afresh, as in a new scene.
static func _let_go(stages: Array) -> void:
	for stage in stages:
		if stage[0] in ["grounder", "stepper"]:
			for helper in stage[1]:
				helper.enabled = false
				helper.enabled = true


## Every Bone2D of the skeletons [param nodes] drive, every grounder's hips and feet and every stepper's body, mapped
## to [code][rotation, position, scale][/code]: what the bake starts from and gives back.
static func _snapshot(nodes: Array) -> Dictionary:
	var out := {}
	var skeletons := {}
	for node in nodes:
		for bone in [node.get("root_bone"), node.get("bone")]:
			var skeleton: Node = bone
			while skeleton is Bone2D:
				skeleton = skeleton.get_parent()
			if skeleton != null:
				skeletons[skeleton] = true
		if node.get_class() == GROUNDER:
			for foot in [node.first_foot, node.second_foot, node.hips]:
				if is_instance_valid(foot):
					out[foot] = [foot.rotation, foot.position, foot.scale]
		if node.get_class() == STEPPER and is_instance_valid(node.body):
			out[node.body] = [node.body.rotation, node.body.position, node.body.scale]
	for skeleton in skeletons:
		for bone in skeleton.find_children("*", "Bone2D", true, false):
			out[bone] = [bone.rotation, bone.position, bone.scale]
	return out


## Notes for a node baked alone whose bones hang off bones another enabled Reach2D node drives: its keys are what it
## does without that node.
static func _hangs_off_notes(node: Node) -> PackedStringArray:
	var notes := PackedStringArray()
	if not node.is_inside_tree():
		return notes
	var own := {}
	var targets := [node]
	if node.get_class() in HELPERS:
		targets.append_array(_legs(node))
	for target in targets:
		for property in written_properties(target):
			own[property[0]] = true
	for other in _scene_of(node).find_children("*", "", true, false):
		if other == node or not other.get_class() in CLASSES or not other.enabled or other in targets:
			continue
		var driven := {}
		for property in written_properties(other):
			if property[1] == &"rotation" and not own.has(property[0]):
				driven[property[0]] = true
		for bone in own:
			var above: Node = bone.get_parent()
			while above is Bone2D and not driven.has(above):
				above = above.get_parent()
			if above is Bone2D:
				notes.append("%s's bones hang off %s, which %s (%s) turns: baked alone, the keys are what %s does without it; bake the whole character (bake_character) to key both" % [node.name, above.name, other.name, other.get_class(), node.name])
				break
	return notes


## Replaces [param path]'s value track in [param animation] (made if missing) with linear keys of [param keys] (one
## value per time) at [param times].
static func _key_track(animation: Animation, path: NodePath, times: PackedFloat64Array, keys: Array) -> void:
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


## Gives the user back what they had: the player's animation and position, then the grounders' writes taken back,
## the pose the bake started from ([param start]: the scene's or the animation's, never a node's output), every node
## started afresh on it ([method _reset]: the game goes on as with nodes just added, the springs at rest on that
## pose) and the nodes' previews.
static func _restore(player: AnimationPlayer, assigned: StringName, position: float, playing: bool, stages: Array, previews: Dictionary, start: Dictionary) -> void:
	if assigned != &"":
		player.assigned_animation = assigned
		player.seek(position, true)
	if playing:
		player.play()
	_let_go(stages)
	_put_back(start)
	_reset(stages)
	_put_previews_back(previews)


## Gives each node of [param pose] ([method _snapshot]) back its rotation, position and scale.
static func _put_back(pose: Dictionary) -> void:
	for node in pose:
		if is_instance_valid(node):
			node.rotation = pose[node][0]
			node.position = pose[node][1]
			node.scale = pose[node][2]


static func _put_previews_back(previews: Dictionary) -> void:
	for node in previews:
		if is_instance_valid(node):
			node.editor_preview = previews[node]


static func _fail(message: String) -> Dictionary:
	push_error(message)
	var out := FAILED.duplicate()
	out["error"] = message
	return out
