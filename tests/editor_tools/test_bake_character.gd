extends "res://lib/test_case.gd"
## Baking a whole character (addons/reach2d/editor/bake.gd, bake_character; issue 31 item 3): the trial's walker, a
## FootGrounder2D on two TwoBoneIk2D legs over a bump and a ramp, a FabrikRig2D holding a sword with both hands on
## a spine that hangs off the hips, a LookAt2D head on the rig's chest and a SpringChain2D tail with colliders, beside
## its mirrored twin (scale.x = -1, on mirrored ground). The live run is the game's own (physics ticks of 1/60 s: the
## animation, then the grounder, the batch and the springs at their run-time priorities); the baked animation,
## replayed with every Reach2D node off, must give the same joints.

const Bake := preload("res://addons/reach2d/editor/bake.gd")
const DT := 1.0 / 60.0
## The mirror line between the two walkers, and the walk's length (s).
const AXIS := 600.0
const LENGTH := 2.0
## Thigh, shin, foot as Characters.LEG_MEASURES (the animation's ground line: its ankle drop plus the foot height).
const LEG := Characters.LEG_MEASURES


## Records what a test asks for after every physics tick, once every node has run (physics priority 1000).
class Recorder extends Node:
	var record: Callable
	var ticks := 0

	func _init(what: Callable) -> void:
		record = what
		process_physics_priority = 1000

	func _physics_process(_delta: float) -> void:
		ticks += 1
		record.call()


## Starts the live run from inside a process frame, after the batch's process pass (priority 1000): the nodes were
## switched to physics mode before that pass, which is when the batch learns a node's mode, so the first physics
## tick after this already runs every node.
class Starter extends Node:
	var start: Callable

	func _init(what: Callable) -> void:
		start = what
		process_priority = 1000

	func _process(_delta: float) -> void:
		start.call()
		queue_free()


## The walker under this test node, `facing` 1 (walking toward +x, left of AXIS) or -1 (its mirror image, right of
## AXIS, walking toward -x). Every node in manual mode until the live run starts. Returns its parts.
func make_walker(facing: float) -> Dictionary:
	var character := Node2D.new()
	character.name = "Walker" if facing > 0.0 else "Mirrored"
	character.position = Vector2(AXIS - facing * 420.0, 200)
	character.scale = Vector2(facing, 1)
	add_child(character)
	var skeleton := Skeleton2D.new()
	skeleton.name = "Skeleton"
	character.add_child(skeleton)
	var hips := Rig.bone(skeleton, "Hips", Vector2.ZERO, LEG["hips"], -PI / 2)
	var thighs := []
	var shins := []
	var feet := []
	var legs := []
	for i in 2:
		var pose: Array = LEG["poses"][i]
		var thigh := Rig.bone(hips, "Thigh%d" % i, Vector2.ZERO, LEG["thigh"], PI / 2, pose[0])
		var shin := Rig.bone(thigh, "Shin%d" % i, Vector2(0, LEG["thigh"]), LEG["shin"], PI / 2, pose[1])
		var foot := Rig.bone(shin, "Foot%d" % i, Vector2(0, LEG["shin"]), LEG["foot"], LEG["foot_angle"], LEG["foot_rotation"])
		var leg: Node2D = ClassDB.instantiate("TwoBoneIk2D")
		leg.name = "Leg%d" % i
		leg.root_bone = thigh
		leg.tip_bone = shin
		character.add_child(leg)
		thighs.append(thigh)
		shins.append(shin)
		feet.append(foot)
		legs.append(leg)
	# The upper body: the two-armed creature's spine on the hips (so the hips' drop moves it), a head on its chest, a
	# tail hanging back from the hips.
	var upper := Rig.two_armed_creature(hips)
	var head := Rig.bone(upper[2], "head", Vector2(20, 0), 16.0, 0.0, 0.0)
	var tail := Rig.chain(hips, [22.0, 18.0, 15.0, 12.0], [2.5, 0.3, 0.25, 0.2], "tail_%d", [0.15, 0.15, 0.15, 0.15])
	var sword := Node2D.new()
	sword.name = "Sword"
	character.add_child(sword)
	sword.position = Vector2(10, -115)
	var grips := []
	for i in 2:
		var grip := Node2D.new()
		grip.name = "Grip%d" % i
		sword.add_child(grip)
		grip.position = Vector2(-22.0 + 44.0 * i, 0)
		grips.append(grip)
	var gaze := Node2D.new()
	gaze.name = "Gaze"
	character.add_child(gaze)

	var grounder: Node2D = ClassDB.instantiate("FootGrounder2D")
	grounder.name = "Grounder"
	grounder.position = Vector2(0, Characters.ankle_drop() + LEG["foot_height"])
	character.add_child(grounder)
	grounder.first_leg = legs[0]
	grounder.second_leg = legs[1]
	grounder.first_foot = feet[0]
	grounder.second_foot = feet[1]
	grounder.hips = hips
	grounder.foot_height = LEG["foot_height"]
	var rig: Node2D = ClassDB.instantiate("FabrikRig2D")
	rig.name = "Rig"
	rig.tolerance = 0.05
	rig.max_iterations = 64
	character.add_child(rig)
	rig.root_bone = upper[0]
	rig.tip_bones = [rig.get_path_to(upper[4]), rig.get_path_to(upper[6])] as Array[NodePath]
	rig.targets = [rig.get_path_to(grips[0]), rig.get_path_to(grips[1])] as Array[NodePath]
	var look: Node2D = ClassDB.instantiate("LookAt2D")
	look.name = "Look"
	look.bone = head
	look.target = gaze
	character.add_child(look)
	var spring: Node2D = ClassDB.instantiate("SpringChain2D")
	spring.name = "Tail"
	spring.root_bone = tail[0]
	spring.tip_bone = tail[-1]
	spring.gravity = Vector2(0, 980)
	spring.stiffness = 80.0
	spring.damping = 7.0
	spring.use_colliders = true
	spring.collision_radius = 3.0
	character.add_child(spring)
	var nodes := [legs[0], legs[1], grounder, rig, look, spring]
	for node in nodes:
		node.update_mode = 2

	var player := AnimationPlayer.new()
	player.name = "Player"
	character.add_child(player)
	player.add_animation_library("", make_walk(facing))
	player.assigned_animation = "walk"
	var bones := skeleton.find_children("*", "Bone2D", true, false)
	return {"character": character, "skeleton": skeleton, "hips": hips, "legs": legs, "feet": feet, "tail": tail,
		"upper": upper, "head": head, "grounder": grounder, "rig": rig, "look": look, "spring": spring,
		"player": player, "nodes": nodes, "bones": bones, "facing": facing}


## The walk (LENGTH s): the character moves 300 px forward, the hips bob, the legs swing (keys every 1/8 s), the sword
## sways in front of the chest and the gaze circles the head.
func make_walk(facing: float) -> AnimationLibrary:
	var animation := Animation.new()
	animation.length = LENGTH
	var move := animation.add_track(Animation.TYPE_VALUE)
	animation.track_set_path(move, ".:position")
	animation.track_insert_key(move, 0.0, Vector2(AXIS - facing * 420.0, 200))
	animation.track_insert_key(move, LENGTH, Vector2(AXIS - facing * 120.0, 200))
	var tracks := {}
	for path in ["Skeleton/Hips:position", "Skeleton/Hips/Thigh0:rotation", "Skeleton/Hips/Thigh0/Shin0:rotation",
			"Skeleton/Hips/Thigh1:rotation", "Skeleton/Hips/Thigh1/Shin1:rotation", "Sword:position", "Gaze:position"]:
		tracks[path] = animation.add_track(Animation.TYPE_VALUE)
		animation.track_set_path(tracks[path], path)
	for k in int(LENGTH * 8.0) + 1:
		var t := k / 8.0
		var phase := TAU * t
		animation.track_insert_key(tracks["Skeleton/Hips:position"], t, Vector2(0, 3.0 * sin(2.0 * phase)))
		animation.track_insert_key(tracks["Skeleton/Hips/Thigh0:rotation"], t, -0.2 + 0.45 * sin(phase))
		animation.track_insert_key(tracks["Skeleton/Hips/Thigh0/Shin0:rotation"], t, 0.45 + 0.25 * cos(phase))
		animation.track_insert_key(tracks["Skeleton/Hips/Thigh1:rotation"], t, -0.2 - 0.45 * sin(phase))
		animation.track_insert_key(tracks["Skeleton/Hips/Thigh1/Shin1:rotation"], t, 0.45 - 0.25 * cos(phase))
		animation.track_insert_key(tracks["Sword:position"], t, Vector2(10 + 14.0 * sin(phase * 0.5), -115 + 8.0 * cos(phase)))
		animation.track_insert_key(tracks["Gaze:position"], t, Vector2(0, -150) + Vector2(90, 0).rotated(phase * 0.5))
	var library := AnimationLibrary.new()
	library.add_animation("walk", animation)
	return library


## The ground under both walkers, mirrored about AXIS: a floor 4 px under the animation's ground line, a 7 px bump
## and a 0.18 rad ramp up onto a raised floor.
func make_ground() -> Array:
	var line_y := 200.0 + Characters.ankle_drop() + LEG["foot_height"]
	var bodies := []
	for side in [1.0, -1.0]:
		var x := func(offset: float) -> float: return AXIS - side * offset
		bodies.append(make_box(Vector2(x.call(330.0), line_y + 4.0 + 50.0), Vector2(260, 100)))
		bodies.append(make_box(Vector2(x.call(340.0), line_y - 3.0 + 5.0), Vector2(26, 10)))
		bodies.append(make_box(Vector2(x.call(160.0), line_y + 4.0 + 50.0), Vector2(120, 100), side * -0.18))
		bodies.append(make_box(Vector2(x.call(60.0), line_y - 6.0 + 50.0), Vector2(120, 100)))
	return bodies


## Every bone's origin and drawn end, and the hips, global.
static func points_of(walker: Dictionary) -> PackedVector2Array:
	var out := PackedVector2Array()
	for bone in walker["bones"]:
		out.append(bone.global_position)
		out.append(Rig.bone_end(bone))
	return out


## The largest difference between the keys of the tracks `a` and `b` share (radians or px), INF when `b` lacks one of
## `a`'s tracks or a track's key count differs.
static func largest_key_difference(a: Animation, b: Animation) -> float:
	var worst := 0.0
	for track in a.get_track_count():
		var other := b.find_track(a.track_get_path(track), a.track_get_type(track))
		if other < 0 or a.track_get_key_count(track) != b.track_get_key_count(other):
			return INF
		for key in a.track_get_key_count(track):
			var x: Variant = a.track_get_key_value(track, key)
			var y: Variant = b.track_get_key_value(other, key)
			worst = maxf(worst, x.distance_to(y) if x is Vector2 else absf(x - y))
	return worst


## The live run of `walkers` (already posed at the animation's start, every node in manual mode): physics ticks of
## 1/60 s, the animation in physics mode, every node in physics mode at its run-time priority, from the same tick on.
## Returns, per tick, [animation time, points of each walker] (points_of), recorded after every node ran.
func run_live(walkers: Array) -> Array:
	var live := []
	var recorder := Recorder.new(func():
		var tick := [walkers[0]["player"].current_animation_position]
		for walker in walkers:
			tick.append(points_of(walker))
		live.append(tick))
	await get_tree().process_frame
	for walker in walkers:
		for node in walker["nodes"]:
			node.update_mode = 1
	add_child(Starter.new(func():
		for walker in walkers:
			walker["player"].seek(0.0, true)
			walker["spring"].reset()
			walker["player"].callback_mode_process = AnimationMixer.ANIMATION_CALLBACK_MODE_PROCESS_PHYSICS
			walker["player"].play(&"walk")
		add_child(recorder)))
	while recorder.ticks < int(LENGTH * 60.0) - 6:
		await get_tree().physics_frame
	recorder.free()
	for walker in walkers:
		walker["player"].pause()
		for node in walker["nodes"]:
			node.update_mode = 2
	return live


## Replays `animation_name` of `walker` (its nodes already off) at each tick's time of `live`: [the largest distance
## of the points of `pick` (indices into points_of; all when empty) from the live run's column `column`, its time].
func replay_error(walker: Dictionary, animation_name: StringName, live: Array, column: int, pick := []) -> Array:
	walker["player"].assigned_animation = animation_name
	var worst := 0.0
	var worst_at := 0.0
	for tick in live:
		walker["player"].seek(tick[0], true)
		var now := points_of(walker)
		for i in (pick if not pick.is_empty() else range(now.size())):
			var off: float = now[i].distance_to(tick[column][i])
			if off > worst:
				worst = off
				worst_at = tick[0]
	return [worst, worst_at]


## Both walkers and their ground, posed at the animation's start, the physics space settled.
func make_scene() -> Dictionary:
	var walkers := [make_walker(1.0), make_walker(-1.0)]
	var ground := make_ground()
	for walker in walkers:
		walker["player"].seek(0.0, true)
	await settle_physics()
	return {"walkers": walkers, "ground": ground}


func free_scene(scene: Dictionary) -> void:
	for walker in scene["walkers"]:
		walker["character"].free()
	for body in scene["ground"]:
		body.free()


func test_a_whole_character_bakes_and_replays_its_live_run_mirrored_too() -> void:
	var scene: Dictionary = await make_scene()
	var walkers: Array = scene["walkers"]
	# The bake first, from the pose the scene gives at the animation's start.
	var results := []
	for walker in walkers:
		var result := Bake.bake_character(walker["character"], walker["player"], &"walk", DT, &"walk_baked")
		results.append(result)
		expect(result["ok"], "%s: the character bakes (%s)" % [walker["character"].name, result])
		if result["ok"]:
			expect(Array(result["nodes"]) == ["Grounder", "Rig", "Look", "Tail"], "the nodes run in the game's order: the grounder, the batch in tree order, the spring (%s)" % [result["nodes"]])
	if not (results[0]["ok"] and results[1]["ok"]):
		free_scene(scene)
		return
	var live: Array = await run_live(walkers)
	# Baked again after the run (the bones hold the nodes' output, the tail has swung, the hips are lowered): the
	# same keys, since a bake starts from the pose the nodes work from, never from their own output.
	var again := Bake.bake_character(walkers[0]["character"], walkers[0]["player"], &"walk", DT, &"walk_again")
	var keys_apart := largest_key_difference(walkers[0]["player"].get_animation(&"walk_baked"), walkers[0]["player"].get_animation(&"walk_again")) if again["ok"] else INF
	expect(keys_apart < 1e-4, "baked again after the live run: the same keys (largest difference %s)" % keys_apart)
	print("baked again after the live run: keys within %s of the first bake's" % keys_apart)
	for walker in walkers:
		for node in walker["nodes"]:
			node.enabled = false
	# The replay with every Reach2D node off, at the live run's animation times.
	var mirror := 0.0
	for tick in live:
		mirror = maxf(mirror, largest_mirror_distance(tick[1], tick[2], AXIS))
	print("live run: %d ticks from t = %.4f s to %.4f s" % [live.size(), live[0][0], live[-1][0]])
	for w in 2:
		var label: String = walkers[w]["character"].name
		var error := replay_error(walkers[w], &"walk_baked", live, 1 + w)
		expect(error[0] < 0.5, "%s: the baked animation replays the live run within 0.5 px (worst %.4f px at t = %.3f s)" % [label, error[0], error[1]])
		print("%s: %d keys, %d tracks, %d bones; the replay's joints within %.4f px of the live run (worst at t = %.3f s)" % [label, results[w]["keys"], results[w]["tracks"], results[w]["bones"], error[0], error[1]])
	print("the live run's mirrored walker is the mirror image within %.4f px" % mirror)
	free_scene(scene)


## The indices into points_of of the bones named in `names` (both points of each).
static func points_named(walker: Dictionary, names: Array) -> Array:
	var out := []
	for b in walker["bones"].size():
		if walker["bones"][b].name in names:
			out.append_array([2 * b, 2 * b + 1])
	return out


## A FootGrounder2D bakes alone with its legs, feet and hips, and the replay is the live run's grounded walk. Its leg
## alone is refused, naming the grounder: before, it baked with ok = true and keyed the plain walk, which sinks into
## the ramp and floats over the bump (measured here as the plain walk against the live run).
func test_a_grounder_bakes_with_its_legs_feet_and_hips() -> void:
	var scene: Dictionary = await make_scene()
	var walker: Dictionary = scene["walkers"][0]
	var player: AnimationPlayer = walker["player"]
	error_log.take()
	var refused := Bake.bake_to_animation(walker["legs"][0], player, &"walk", DT, &"leg_baked")
	var error := String(refused.get("error", ""))
	expect(not refused["ok"] and "Grounder" in error and "bake_character" in error, "a grounded leg alone is refused, naming its grounder and the character bake (%s)" % [refused])
	expect(not player.has_animation(&"leg_baked"), "the refusal bakes nothing")
	error_log.take()
	var result := Bake.bake_to_animation(walker["grounder"], player, &"walk", DT, &"ground_baked")
	if not expect(result["ok"], "the grounder bakes (%s)" % [result]):
		free_scene(scene)
		return
	var baked := player.get_animation(&"ground_baked")
	for path in ["Skeleton/Hips:position", "Skeleton/Hips/Thigh0:rotation", "Skeleton/Hips/Thigh1/Shin1:rotation", "Skeleton/Hips/Thigh0/Shin0/Foot0:rotation", "Skeleton/Hips/Thigh1/Shin1/Foot1:rotation"]:
		expect(baked.find_track(NodePath(path), Animation.TYPE_VALUE) >= 0, "the grounder's bake keys %s" % path)
	expect(result["tracks"] == 7, "7 tracks: 4 leg bones, 2 feet, the hips' position (%d)" % result["tracks"])
	var live: Array = await run_live([walker])
	for node in walker["nodes"]:
		node.enabled = false
	var legs := points_named(walker, ["Hips", "Thigh0", "Shin0", "Foot0", "Thigh1", "Shin1", "Foot1"])
	var grounded := replay_error(walker, &"ground_baked", live, 1, legs)
	var plain := replay_error(walker, &"walk", live, 1, legs)
	expect(grounded[0] < 0.5, "the grounder's keys replay the live legs, feet and hips within 0.5 px (worst %.4f px at t = %.3f s)" % grounded)
	expect(plain[0] > 5.0, "the plain walk is far from the grounded one (%.2f px): the comparison can fail" % plain[0])
	print("grounder alone: %d tracks; legs, feet and hips replay within %.4f px of the live run; the plain walk is %.2f px off (t = %.3f s)" % [result["tracks"], grounded[0], plain[0], plain[1]])
	free_scene(scene)


## A node baked alone says what it misses: a LookAt2D on the rig's chest notes the rig (baked alone, its keys are what
## it does without the rig's chest: the trial's head replayed 0.449 rad off); a FabrikRig2D bakes its bones; what is
## not a Reach2D node, or a root without one, is refused with what can be baked and how.
func test_a_node_baked_alone_says_what_it_misses() -> void:
	var scene: Dictionary = await make_scene()
	var walker: Dictionary = scene["walkers"][0]
	var player: AnimationPlayer = walker["player"]
	var look := Bake.bake_to_animation(walker["look"], player, &"walk", DT, &"look_baked")
	expect(look["ok"] and "Rig" in "\n".join(look["notes"]) and "bake_character" in "\n".join(look["notes"]), "the look-at bakes, with a note naming the rig it hangs off (%s)" % [look])
	var rig := Bake.bake_to_animation(walker["rig"], player, &"walk", DT, &"rig_baked")
	expect(rig["ok"] and rig["bones"] == 7, "the rig bakes its 7 bones (%s)" % [rig])
	var tail := Bake.bake_to_animation(walker["spring"], player, &"walk", DT, &"tail_baked")
	expect(tail["ok"] and tail["bones"] == 4 and tail["notes"].is_empty(), "the tail bakes its 4 bones without a note: nothing drives the hips' rotation (%s)" % [tail])
	var sprite := Sprite2D.new()
	add_child(sprite)
	var empty := Node2D.new()
	add_child(empty)
	var not_a_node := Bake.bake_to_animation(sprite, player, &"walk", DT, &"sprite_baked")
	expect(not not_a_node["ok"] and "bake_character" in String(not_a_node.get("error", "")) and "FootGrounder2D" in String(not_a_node.get("error", "")), "a Sprite2D is refused, naming what can be baked and how (%s)" % [not_a_node])
	var nothing := Bake.bake_character(empty, player, &"walk", DT, &"empty_baked")
	expect(not nothing["ok"] and "no enabled Reach2D node" in String(nothing.get("error", "")), "a root without Reach2D nodes is refused (%s)" % [nothing])
	var not_a_root := Bake.bake_character(null, player, &"walk", DT, &"null_baked")
	expect(not not_a_root["ok"] and "root" in String(not_a_root.get("error", "")), "no root is refused (%s)" % [not_a_root])
	for name in [&"sprite_baked", &"empty_baked", &"null_baked"]:
		expect(not player.has_animation(name), "a refusal adds no animation (%s)" % name)
	error_log.take()
	sprite.free()
	empty.free()
	# What the note warns of: the head's keys, replayed under the rig's live chest, against the live head.
	var head := points_named(walker, ["head"])
	var live: Array = await run_live([walker])
	walker["look"].enabled = false
	player.assigned_animation = &"look_baked"
	var worst := 0.0
	for tick in live:
		player.seek(tick[0], true)
		walker["rig"].solve()
		var now := points_of(walker)
		var live_aim: Vector2 = tick[1][head[1]] - tick[1][head[0]]
		worst = maxf(worst, absf(live_aim.angle_to(now[head[1]] - now[head[0]])))
	expect(worst > 0.05, "the head baked alone misses the live head under the rig's chest (%.3f rad): what the note warns of" % worst)
	print("look-at baked alone, replayed under the rig's live chest: the head up to %.3f rad off the live run" % worst)
	free_scene(scene)


## The order follows the game: process priority first (a node with its own runs by itself at it), then at the default
## one the scene's nodes in tree order before the batch, then the springs; disabled nodes are left out with a note.
func test_the_order_follows_the_process_priorities() -> void:
	var scene: Dictionary = await make_scene()
	var walker: Dictionary = scene["walkers"][0]
	var kinds := func(found: Dictionary) -> Array:
		return found["stages"].map(func(stage): return [stage[0], stage[1].map(func(n): return String(n.name))])
	var found := Bake.character_nodes(walker["character"])
	expect(kinds.call(found) == [["grounder", ["Grounder"]], ["batch", ["Rig", "Look"]], ["spring", ["Tail"]]], "default priorities: %s" % [kinds.call(found)])
	walker["look"].process_priority = 50
	walker["spring"].enabled = false
	found = Bake.character_nodes(walker["character"])
	expect(kinds.call(found) == [["solve", ["Look"]], ["grounder", ["Grounder"]], ["batch", ["Rig"]]], "a look-at at priority 50 runs by itself first; the disabled tail is left out: %s" % [kinds.call(found)])
	expect("Tail" in "\n".join(found["notes"]) and "disabled" in "\n".join(found["notes"]), "the disabled tail is noted (%s)" % [found["notes"]])
	walker["look"].process_priority = 120
	found = Bake.character_nodes(walker["character"])
	expect(kinds.call(found) == [["grounder", ["Grounder"]], ["batch", ["Rig"]], ["solve", ["Look"]]], "at priority 120 it runs after the batch: %s" % [kinds.call(found)])
	free_scene(scene)
