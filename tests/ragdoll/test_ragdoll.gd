extends "res://lib/test_case.gd"
## Ragdoll2D (issue 40) in real Godot physics, one physics tick at a time (each tick is 1/60 s of simulation,
## whatever the frame rate): a figure dropped on a floor with a step settles (no bone inside a surface, joints within
## their limits, lengths exact, motion gone within 3 s); ten dropped on each other neither explode nor pass through
## each other; the setup's warnings; the bodies freed with the node.

const Ragdolls := preload("res://lib/ragdolls.gd")
const FLOOR_Y := 600.0
## The floor and the step, as boxes (global rects).
const FLOOR := Rect2(-2000, FLOOR_Y, 4000, 400)
const STEP := Rect2(400, FLOOR_Y - 40, 1600, 40)


func _ready() -> void:
	Engine.physics_ticks_per_second = 60


func make_ground() -> void:
	for rect in [FLOOR, STEP]:
		make_box(rect.get_center(), rect.size)


func ticks(n: int) -> void:
	for i in n:
		await get_tree().physics_frame


## Largest per-tick move (px) of any of `points_before`/`points_after`, as a speed in px/s.
func speed(before: PackedVector2Array, after: PackedVector2Array) -> float:
	return largest_distance(before, after) * 60.0


## How far the rotation of bone i is outside its limit (rad), the worst bone.
func worst_limit_excess(bones: Array) -> Array:
	var worst := 0.0
	var which := ""
	for i in bones.size():
		if i == 0:
			continue
		var spec: Array = Ragdolls.BONES[i]
		var r := wrapf(bones[i].rotation, -PI, PI)
		var excess := maxf(spec[6] - r, r - spec[7])
		if excess > worst:
			worst = excess
			which = spec[0]
	return [worst, which]


## Each bone's distance from its parent bone's origin (the lengths the write must keep), the root left out.
func link_lengths(bones: Array) -> PackedFloat32Array:
	var out := PackedFloat32Array()
	for b in bones.slice(1):
		var parent := b.get_parent() as Node2D
		out.append(b.global_position.distance_to(parent.global_position))
	return out


func test_settles_on_a_floor_with_a_step() -> void:
	make_ground()
	var figure := Ragdolls.figure(self, Vector2(400, 420))
	var bones: Array = figure["bones"]
	figure["skeleton"].rotation = 0.4
	var lengths := link_lengths(bones)
	var ragdoll := Ragdolls.ragdoll(self, figure)
	await settle_physics()
	expect(ragdoll.get_setup_warning() == "", "no warning: %s" % ragdoll.get_setup_warning())
	ragdoll.start()
	expect(ragdoll.is_running(), "running after start()")
	var worst_depth := 0.0
	var impact_depth := 0.0
	var worst_limit := [0.0, ""]
	var impact_limit := 0.0
	var worst_length := 0.0
	var late_speed := 0.0
	var points := Ragdolls.points_of(bones)
	for tick in 240:
		await ticks(1)
		var now := Ragdolls.points_of(bones)
		if tick >= 180:
			late_speed = maxf(late_speed, speed(points, now))
		points = now
		# At rest (after 3 s): how deep a bone is, how far a joint is past its limit. Before: the impact's figures.
		var depth := 0.0
		for b in bones:
			for box in [FLOOR, STEP]:
				depth = maxf(depth, Ragdolls.depth_in_box(b.global_position, Rig.bone_end(b), box))
		var limit := worst_limit_excess(bones)
		if tick >= 180:
			worst_depth = maxf(worst_depth, depth)
			if limit[0] > worst_limit[0]:
				worst_limit = limit
		else:
			impact_depth = maxf(impact_depth, depth)
			impact_limit = maxf(impact_limit, limit[0])
		var now_lengths := link_lengths(bones)
		for i in lengths.size():
			worst_length = maxf(worst_length, absf(now_lengths[i] - lengths[i]))
	expect(all_finite(bones), "every bone finite")
	expect(worst_depth <= 1.0, "at rest no bone more than 1 px inside a surface: %.3f px" % worst_depth)
	expect(worst_limit[0] <= 0.05, "at rest joints within their limits ±0.05 rad: %.4f rad (%s)" % worst_limit)
	expect(worst_length <= 1e-3, "lengths exact: %.6f px" % worst_length)
	expect(late_speed < 2.0, "motion dies out within 3 s: fastest point over 3..4 s at %.3f px/s" % late_speed)
	var hips: Vector2 = bones[0].global_position
	expect(hips.y > 520.0 and hips.y < FLOOR_Y, "the figure fell and lies on the ground: hips at %s" % hips)
	print("ragdoll settle: at rest depth %.3f px, limit excess %.4f rad (%s); during the impact depth %.3f px, limit excess %.4f rad; length %.6f px; speed over 3..4 s %.4f px/s" % [worst_depth, worst_limit[0], worst_limit[1], impact_depth, impact_limit, worst_length, late_speed])


func test_ten_dropped_on_each_other() -> void:
	make_ground()
	var figures := []
	var ragdolls := []
	for k in 10:
		var figure := Ragdolls.figure(self, Vector2(200 + 6 * k, 440 - 70 * k))
		figure["skeleton"].rotation = PI / 2 if k % 2 == 0 else -PI / 2
		figures.append(figure)
		ragdolls.append(Ragdolls.ragdoll(self, figure))
	await settle_physics()
	for r in ragdolls:
		r.start()
	var fastest := 0.0
	var late := 0.0
	var before := []
	for f in figures:
		before.append(Ragdolls.points_of(f["bones"]))
	for tick in 300:
		await ticks(1)
		for k in figures.size():
			var now := Ragdolls.points_of(figures[k]["bones"])
			if tick >= 60:
				fastest = maxf(fastest, speed(before[k], now))
			if tick >= 240:
				late = maxf(late, speed(before[k], now))
			before[k] = now
	var all_bones := []
	var finite := true
	for f in figures:
		finite = finite and all_finite(f["bones"])
		all_bones.append(f["bones"])
	expect(finite, "every bone finite")
	expect(fastest < 3000.0, "nothing explodes: fastest point after the first second at %.1f px/s" % fastest)
	expect(late < 300.0, "the pile stays together: fastest point over 4..5 s at %.1f px/s" % late)
	# No bone of one figure inside a bone of another: their segments stay about two radii (8 px) apart.
	var closest := INF
	for a in all_bones.size():
		for b in range(a + 1, all_bones.size()):
			for p in all_bones[a]:
				for q in all_bones[b]:
					var d := Ragdolls.segment_distance(p.global_position, Rig.bone_end(p), q.global_position, Rig.bone_end(q))
					closest = minf(closest, d)
	expect(closest >= 6.0, "no figure passes through another: closest bones of two figures %.2f px apart (capsules 8 px thick)" % closest)
	var lowest := -INF
	for bones in all_bones:
		for b in bones:
			lowest = maxf(lowest, maxf(b.global_position.y, Rig.bone_end(b).y))
	expect(lowest <= FLOOR_Y + 1.0, "none falls through the floor: lowest point at y %.2f" % lowest)
	print("ragdoll stack: fastest %.2f px/s after 1 s, %.2f px/s over 4..5 s, closest bones %.2f px, lowest y %.2f" % [fastest, late, closest, lowest])


func test_warnings_say_one_thing_each() -> void:
	var ragdoll: Node2D = ClassDB.instantiate("Ragdoll2D")
	add_child(ragdoll)
	expect(ragdoll.get_setup_warning().contains("root_bone"), "no root bone: %s" % ragdoll.get_setup_warning())
	var figure := Ragdolls.figure(self, Vector2(100, 100))
	ragdoll.root_bone = figure["bones"][0]
	expect(ragdoll.get_setup_warning() == "", "set up: no warning (%s)" % ragdoll.get_setup_warning())
	expect(ragdoll.get_bone_count() == 12, "12 bones: %d" % ragdoll.get_bone_count())
	ragdoll.weight = NAN
	expect(ragdoll.weight == 1.0, "a NaN weight is refused")
	ragdoll.strength = 2.0
	expect(ragdoll.strength == 0.0, "a strength above 1 is refused")
	var stranger := Node2D.new()
	ragdoll.set("root_bone", stranger)
	expect(ragdoll.root_bone == figure["bones"][0], "a Node2D is no root bone")
	ragdoll.apply_impulse(stranger, Vector2.ONE, Vector2.ZERO)
	expect(not ragdoll.is_running(), "an impulse on a stranger starts nothing")
	stranger.free()


func test_freed_with_its_bodies_and_bones_freed_under_it() -> void:
	make_ground()
	var figure := Ragdolls.figure(self, Vector2(300, 450))
	var ragdoll := Ragdolls.ragdoll(self, figure)
	await settle_physics()
	ragdoll.start()
	await ticks(10)
	# A forearm freed mid-fall: the ragdoll rebuilds from the bones left and keeps them finite.
	figure["bones"][5].free()
	await ticks(10)
	var left: Array = figure["bones"].filter(func(b): return is_instance_valid(b))
	expect(all_finite(left), "bones left finite after a bone was freed")
	expect(ragdoll.get_bone_count() == 11, "11 bones left: %d" % ragdoll.get_bone_count())
	ragdoll.start()
	await ticks(5)
	var reparent := Node2D.new()
	add_child(reparent)
	ragdoll.reparent(reparent)
	await ticks(5)
	expect(all_finite(left), "finite after the node was reparented")
	ragdoll.queue_free()
	await ticks(2)
	figure["skeleton"].queue_free()
	await ticks(2)


## Every numeric property Ragdoll2D declares (read from ClassDB), a bad value by every route a script has: one error
## each, the last good value kept (as tests/test_every_route.gd holds the other nodes to).
func test_every_property_by_every_route() -> void:
	var checked := 0
	for property in ClassDB.class_get_property_list("Ragdoll2D", true):
		if not (property["usage"] & PROPERTY_USAGE_STORAGE and property["type"] in [TYPE_FLOAT, TYPE_INT]):
			continue
		var name: String = property["name"]
		var bad: Array = [NAN, INF, -INF, -1.0]
		if property["type"] == TYPE_INT:
			bad = [-1, 1 << 32]
		for route in ["set", "setter", "call"]:
			for value in bad:
				var node: Node2D = ClassDB.instantiate("Ragdoll2D")
				var before: Variant = node.get(name)
				var errors := error_log.messages.size()
				match route:
					"set":
						node.set(name, value)
					"setter":
						node.call("set_" + name, value)
					"call":
						node.callv("set_" + name, [value])
				expect(node.get(name) == before, "Ragdoll2D.%s by %s = %s: kept %s, got %s" % [name, route, value, before, node.get(name)])
				expect(error_log.messages.size() - errors == 1, "Ragdoll2D.%s by %s = %s: one error" % [name, route, value])
				node.free()
				checked += 1
	for name in ["bone_widths", "bone_masses"]:
		var node: Node2D = ClassDB.instantiate("Ragdoll2D")
		var errors := error_log.messages.size()
		node.set(name, PackedFloat32Array([4.0, NAN]))
		expect(node.get(name).is_empty(), "%s with a NaN entry refused" % name)
		expect(error_log.messages.size() - errors == 1, "%s: one error" % name)
		node.free()
	# 7 floats x 4 values + 2 layer masks x 2 values, by 3 routes.
	expect(checked >= (7 * 4 + 2 * 2) * 3, "Ragdoll2D's numeric properties found: %d cases" % checked)


## The object arguments a script passes by hand: a wrong class, or null, is one sentence naming what it takes, never
## godot-rust's conversion text, and nothing is recorded.
func test_start_recording_refuses_wrong_arguments_in_one_sentence() -> void:
	var node: Node2D = ClassDB.instantiate("Ragdoll2D")
	add_child(node)
	for arguments in [[Node2D.new(), self], [Animation.new(), 5], [null, self], [Animation.new(), null]]:
		var errors := error_log.messages.size()
		node.call("start_recording", arguments[0], arguments[1])
		var said := error_log.messages.slice(errors)
		expect(said.size() == 1, "start_recording%s: one error, got %s" % [arguments, said])
		for message: String in said:
			expect(not ("conversion" in message or "Gd<" in message or "1337" in message), "no godot-rust text: %s" % message)
			expect("start_recording" in message, "names the method: %s" % message)
		if arguments[0] is Node2D:
			arguments[0].free()
	node.queue_free()


func test_a_collapsed_skeleton_is_told_once_and_writes_no_nan() -> void:
	# Godot keeps a zero scale as 1e-5: both axes collapsed leave an area of 1e-10, too small for a body.
	var figure := Ragdolls.figure(self, Vector2(300, 300), Vector2(0, 0))
	var ragdoll := Ragdolls.ragdoll(self, figure)
	await ticks(5)
	ragdoll.start()
	await ticks(5)
	expect(ragdoll.get_setup_warning().contains("collapsed"), "the warning says why: %s" % ragdoll.get_setup_warning())
	expect(error_log.count("collapsed") == 1, "told once in 10 ticks: %d" % error_log.count("collapsed"))
	expect(not ragdoll.is_running(), "not running")
	var finite := true
	for b in figure["bones"]:
		finite = finite and is_finite(b.rotation) and b.position.is_finite()
	expect(finite, "no NaN written")
	figure["skeleton"].scale = Vector2.ONE
	await ticks(2)
	expect(ragdoll.get_setup_warning() == "", "fixed: no warning (%s)" % ragdoll.get_setup_warning())
	ragdoll.start()
	expect(ragdoll.is_running(), "runs once the skeleton has a scale again")
