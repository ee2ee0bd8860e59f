extends "res://lib/test_case.gd"
## SpringChain2D's colliders (issue 23) on real Skeleton2D/Bone2D rigs with bone_angle != 0 against StaticBody2D
## shapes in the scene's physics space: a tail rests on a floor and still swings, a tail thrown at a thin wall at
## 20 fps does not pass it, a mirrored character against a mirrored world is the mirror image, colliders off
## change nothing, and a bad radius is refused with one message.

const DOWN := Vector2(0, 980)


## A SpringChain2D with colliders of `radius` px on the tail of `case` (a Characters.with_tail), in manual mode.
func make_colliding_spring(case: Dictionary, radius := 5.0) -> Node2D:
	var spring := make_spring(case["bones"], 2, true)
	spring.collision_radius = radius
	return spring


func test_a_tail_rests_on_a_floor_and_still_swings() -> void:
	var floor_top := 280.0
	var floor := make_box(Vector2(400, floor_top + 20), Vector2(1200, 40))
	var case := Characters.with_tail(self, Vector2(300, 200), [30.0, 30.0, 30.0, 30.0], [1.2, 0.1, 0.1, 0.1], 0.25)
	var spring := make_colliding_spring(case)
	spring.gravity = DOWN
	spring.stiffness = 30.0
	spring.damping = 3.0
	var radius: float = spring.collision_radius
	await settle_physics()
	var worst := -INF
	var lowest_tip := -INF
	var tip_x := []
	tip_x.resize(180)
	var baseline := 0
	for frame in 360:
		if frame == 60:
			baseline = ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations")
		case["character"].position = Vector2(300 + 80.0 * sin(frame / 60.0 * 1.5), 200)
		expect(spring.advance(1.0 / 60.0), "frame %d steps" % frame)
		var joints := joints_of(case["bones"])
		for i in range(1, joints.size()):
			worst = maxf(worst, joints[i].y - (floor_top - radius))
			expect(joints[i].is_finite(), "finite joints")
		lowest_tip = maxf(lowest_tip, joints[-1].y)
		if frame >= 180:
			tip_x[frame - 180] = joints[-1].x
	var allocated: int = ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations") - baseline
	expect(allocated == 0, "steady frames with colliders allocate nothing in the extension (%d allocations)" % allocated)
	expect(worst <= 0.05, "every bone end stays at least its radius above the floor (worst %s px into it)" % worst)
	expect(lowest_tip > floor_top - radius - 1.0, "the tail reaches down to rest on the floor (lowest tip %s)" % lowest_tip)
	var sweep: float = tip_x.max() - tip_x.min()
	expect(sweep > 80.0, "it still swings and slides along the floor (tip swept %s px)" % sweep)
	print("floor: worst %s px past the radius, tip down to %s, swept %s px" % [worst, lowest_tip, sweep])
	for node in [case["character"], spring, floor]:
		node.free()


func test_a_tail_thrown_at_a_thin_wall_does_not_pass() -> void:
	var wall_x := 400.0
	var wall := make_box(Vector2(wall_x + 1, 200), Vector2(2, 400))
	var case := Characters.with_tail(self, Vector2(wall_x - 100, 200), [30.0, 30.0, 30.0, 30.0], [PI, 0.0, 0.0, 0.0], 0.25)
	var spring := make_colliding_spring(case, 4.0)
	spring.stiffness = 2000.0
	spring.damping = 2.0
	await settle_physics()
	var worst := -INF
	var stepped := 0
	for frame in 120:
		# The body spins the tail round at up to 30 rad/s, stepped at 20 fps: 1.5 rad a frame at the end.
		var delta := 1.0 / 20.0
		case["character"].rotation = -minf(frame * delta * 10.0, 30.0) * frame * delta * 0.5
		if spring.advance(delta):
			stepped += 1
		for p in joints_of(case["bones"]):
			worst = maxf(worst, p.x - (wall_x - 4.0))
	expect(stepped == 120, "every frame stepped (%d of 120)" % stepped)
	expect(worst <= 0.05, "no joint passes the 2 px wall (worst %s px past its radius)" % worst)
	print("thin wall at 20 fps: worst %s px" % worst)
	for node in [case["character"], spring, wall]:
		node.free()


func test_a_moving_body_pushes_the_tail_out() -> void:
	# A tail hanging straight down; a box rises into it from below at 120 px/s and stops 40 px above where the tip was.
	var case := Characters.with_tail(self, Vector2(300, 100), [30.0, 30.0, 30.0, 30.0], [PI / 2 - 0.25, 0.0, 0.0, 0.0], 0.25)
	var spring := make_colliding_spring(case)
	spring.gravity = DOWN
	spring.stiffness = 20.0
	var radius: float = spring.collision_radius
	var box := make_box(Vector2(300, 360), Vector2(300, 40))
	await settle_physics()
	var worst := -INF
	var stepped := 0
	var top := 0.0
	for frame in 180:
		top = maxf(340.0 - frame * 2.0, 180.0)
		box.position.y = top + 20.0
		# A body moves in the physics step: the space's broadphase takes the new place in then.
		await get_tree().physics_frame
		if spring.advance(1.0 / 60.0):
			stepped += 1
		var joints := joints_of(case["bones"])
		for i in range(1, joints.size()):
			worst = maxf(worst, joints[i].y - (top - radius))
	expect(stepped == 180, "every frame stepped (%d of 180)" % stepped)
	expect(worst <= 0.05, "every bone end stays out of the rising box (worst %s px into its radius)" % worst)
	print("rising box: worst %s px" % worst)
	for node in [case["character"], spring, box]:
		node.free()


## One mirrored run: a character and its mirror image (scale.x = -1) swing tails into a floor and a wall standing
## on it, pushed by `force` px/s² toward the wall, for 300 frames. Returns the worst mirrored joint difference and
## the frames in contact.
func mirrored_run(force: float, stiffness: float, axis := 500.0) -> Vector2:
	var floor_top := 320.0
	var world := [
		make_box(Vector2(axis, floor_top + 20), Vector2(1000, 40)),
		make_box(Vector2(axis - 150 + 75, 240), Vector2(6, 200)),
		make_box(Vector2(axis + 150 - 75, 240), Vector2(6, 200)),
	]
	var pair := Characters.mirrored_tails(self, axis)
	var a: Dictionary = pair[0]
	var b: Dictionary = pair[1]
	var springs := make_mirrored_springs(pair, stiffness, 2.0, force, 5.0)
	await settle_physics()
	var worst := 0.0
	var touched := 0
	for frame in 300:
		step_mirrored_springs(pair, springs, axis, frame, Vector2(40, 15))
		var ja := joints_of(a["bones"])
		worst = maxf(worst, largest_mirror_distance(ja, joints_of(b["bones"]), axis))
		if ja[-1].y > floor_top - 6.0 or ja[-1].x > axis - 75 - 3 - 6.0:
			touched += 1
	for node in [a["character"], b["character"]] + springs + world:
		node.free()
	return Vector2(worst, touched)


func test_a_mirrored_character_against_a_mirrored_world_is_the_mirror_image() -> void:
	# Twelve runs (push 0..600 toward the wall, stiffness 20..80). Without contacts the mirrored chain differs only
	# by rounding (1e-4 px: its coordinates lie on another float grid). In contact, Godot's answers for the mirrored
	# world differ in their last bits (a circle at a box's corner: normals 2e-4 apart), and a tail sliding along a
	# floor carries such a difference on: measured up to 1.4 px over 300 frames. Before the end slid to the
	# crossing it met first on its way (it took the one nearest to where it wanted to go, which flips from one side
	# of a shape to the other on the last bit), 4 of the 12 runs ended 10-46 px apart.
	var worsts: Array[float] = []
	for force in [0.0, 200.0, 400.0, 600.0]:
		for stiffness in [20.0, 40.0, 80.0]:
			var run: Vector2 = await mirrored_run(force, stiffness)
			expect(run.y > 30, "the tail touches the floor or the wall (%d frames)" % run.y)
			worsts.append(run.x)
	worsts.sort()
	var median := (worsts[5] + worsts[6]) / 2.0
	expect(worsts[-1] < 2.0, "every mirrored run stays within 2 px of the mirror image (worst %s px)" % worsts[-1])
	expect(median < 0.2, "half the mirrored runs stay within 0.2 px (median %s px)" % median)
	print("mirrored world: 12 runs of 300 frames, worst joint differences %s px" % [worsts])
	# The same runs answered by the engine's queries (Reach2DDebug), for the record.
	ClassDB.class_call_static("Reach2DDebug", "set_spring_engine_queries", true)
	var engine: Array[float] = []
	for force in [0.0, 200.0, 400.0, 600.0]:
		for stiffness in [20.0, 40.0, 80.0]:
			engine.append((await mirrored_run(force, stiffness)).x)
	ClassDB.class_call_static("Reach2DDebug", "set_spring_engine_queries", false)
	engine.sort()
	print("mirrored world, engine queries: worst joint differences %s px" % [engine])


func test_a_world_mirrored_about_zero_stays_near_the_mirror_image() -> void:
	# Mirrored about x = 0, every coordinate of the mirrored character and world is the exact negation of the
	# other's (no other float grid). The local narrow phase answers mirror-exactly; what still differs is the
	# chain's own rounding (its absolute angles are θ and π − θ, on different float grids: ~1e-5 px a step), which
	# a sliding contact carries on. Measured: local 0.0004-0.10 px, engine queries 0.004-0.11 px.
	var local: Array[float] = []
	var engine: Array[float] = []
	for force in [0.0, 400.0]:
		for stiffness in [20.0, 80.0]:
			var run: Vector2 = await mirrored_run(force, stiffness, 0.0)
			expect(run.y > 30, "the tail touches the floor or the wall (%d frames)" % run.y)
			local.append(run.x)
			ClassDB.class_call_static("Reach2DDebug", "set_spring_engine_queries", true)
			engine.append((await mirrored_run(force, stiffness, 0.0)).x)
			ClassDB.class_call_static("Reach2DDebug", "set_spring_engine_queries", false)
	expect(local.max() < 0.5, "the local narrow phase stays within 0.5 px of the mirror image (worst %s px)" % local.max())
	print("exactly mirrored world: local narrow phase %s px, engine queries %s px" % [local, engine])


func test_a_turn_on_the_floor_mirrors_the_tail_without_a_whip() -> void:
	# A tail lying on a floor; the character turns around (scale.x = -1) every 90 frames. The swing and the ends'
	# last positions are mirrored with it, so the tail lands where it lay, mirrored: no bone turns further in a
	# turn's frame than in an ordinary one, and no end is left in the floor.
	var floor_top := 300.0
	var floor := make_box(Vector2(400, floor_top + 20), Vector2(1200, 40))
	var case := Characters.with_tail(self, Vector2(400, 240), [26.0, 24.0, 22.0, 20.0], [2.0, 0.4, 0.3, 0.2], 0.25)
	var spring := make_colliding_spring(case)
	spring.gravity = Vector2(0, 1500)
	spring.stiffness = 20.0
	spring.damping = 6.0
	var radius: float = spring.collision_radius
	await settle_physics()
	var bones: Array = case["bones"]
	var last := []
	for bone in bones:
		last.append(bone.global_rotation)
	var ordinary := 0.0
	var at_turns := 0.0
	var deepest := -INF
	for frame in 360:
		var turned := frame % 90 == 89
		if turned:
			case["character"].scale.x *= -1.0
		case["character"].position.x = 400 + 30.0 * sin(frame / 40.0)
		spring.advance(1.0 / 60.0)
		var step := 0.0
		for i in bones.size():
			# Each bone's turn in its character's own frame (a flip reverses the global angles).
			var local: float = bones[i].rotation
			step = maxf(step, absf(angle_difference(last[i], local)))
			last[i] = local
		if frame > 30:
			if turned:
				at_turns = maxf(at_turns, step)
			else:
				ordinary = maxf(ordinary, step)
		var joints := joints_of(bones)
		for i in range(1, joints.size()):
			deepest = maxf(deepest, joints[i].y - (floor_top - radius))
	expect(deepest <= 0.05, "every end stays at least its radius above the floor (worst %s px into it)" % deepest)
	expect(at_turns <= ordinary + 0.02, "a turn moves no bone more than an ordinary frame (%s rad at turns, %s otherwise)" % [at_turns, ordinary])
	print("turns on the floor: %s rad at turns, %s rad otherwise, deepest %s px" % [at_turns, ordinary, deepest])
	for node in [case["character"], spring, floor]:
		node.free()


func test_colliders_are_off_by_default_and_off_changes_nothing() -> void:
	var floor := make_box(Vector2(400, 300), Vector2(1200, 40))
	var a := Characters.with_tail(self, Vector2(300, 200), [30.0, 30.0, 30.0, 30.0], [1.2, 0.1, 0.1, 0.1], 0.25)
	var b := Characters.with_tail(self, Vector2(300, 200), [30.0, 30.0, 30.0, 30.0], [1.2, 0.1, 0.1, 0.1], 0.25)
	var plain: Node2D = ClassDB.instantiate("SpringChain2D")
	expect(not plain.use_colliders and plain.collision_mask == 1 and plain.collision_radius > 0.0, "defaults: off, layer 1")
	expect(plain.collide_with_bodies and not plain.collide_with_areas, "defaults: bodies, not areas")
	plain.update_mode = 2
	plain.root_bone = a["bones"][0]
	plain.tip_bone = a["bones"][-1]
	add_child(plain)
	var masked := make_colliding_spring(b)
	masked.collision_mask = 2  # the floor is on layer 1 only
	await settle_physics()
	var worst := 0.0
	var deepest := -INF
	for s in [plain, masked]:
		s.gravity = DOWN
		s.stiffness = 30.0
	for frame in 120:
		plain.advance(1.0 / 60.0)
		masked.advance(1.0 / 60.0)
		var ja := joints_of(a["bones"])
		var jb := joints_of(b["bones"])
		deepest = maxf(deepest, ja[-1].y)
		worst = maxf(worst, largest_distance(ja, jb))
	expect(deepest > 280.0, "without colliders the tail hangs through the floor as before (tip down to %s)" % deepest)
	expect(worst == 0.0, "colliders on with a mask that misses the floor: the same pose (off by %s px)" % worst)
	for node in [a["character"], b["character"], plain, masked, floor]:
		node.free()


func test_a_bad_radius_is_refused_with_one_message() -> void:
	var spring: Node2D = ClassDB.instantiate("SpringChain2D")
	add_child(spring)
	spring.collision_radius = 7.5
	error_log.take()
	for value in [NAN, -1.0, INF, -INF]:
		spring.collision_radius = value
		expect(spring.collision_radius == 7.5, "collision_radius = %s is refused (keeps 7.5)" % value)
	var messages := error_log.take()
	expect(messages.size() == 4, "one message per refused value (got %d)" % messages.size())
	for m in messages:
		expect("collision_radius" in m, "the message names the property: %s" % m)
	spring.collision_radius = 0.0
	expect(spring.collision_radius == 0.0, "0 is taken (no collision)")
	spring.free()
