extends "res://lib/test_case.gd"
## PathChain2D with bad input and beside other nodes: every broken setup and degenerate curve (no path, a freed or
## out-of-tree path, no curve, an empty, one-point or zero-length curve, NaN points, a zero-scale path or skeleton, a
## freed bone) gives one message and no NaN, and the bones keep their pose; no allocation per frame; it runs after
## the IK nodes above it in the tree (and in Reach2D.solve_all's order), so it sees their solved pose.

const LENGTHS := [30.0, 26.0, 22.0, 18.0, 14.0]
const ROTATIONS := [0.4, -0.3, 0.5, -0.2, 0.3]


## Allocations made inside the nodes' own per-frame code (debug build).
func allocations() -> int:
	return ClassDB.class_call_static("Reach2DDebug", "node_heap_allocations")


## A snake (Characters.on_path, bone angle 0.25) at `at` on the S-curve in `update_mode`.
func make_snake(at: Vector2, update_mode := 2) -> Dictionary:
	return Characters.on_path(self, at, false, LENGTHS, ROTATIONS, 0.25, Characters.s_curve(), update_mode)


## Breaks `snake` as `case` says; returns what the message must name.
func break_snake(snake: Dictionary, case: String) -> String:
	var path: Path2D = snake["path"]
	match case:
		"no path":
			snake["chain"].path = null
			return "No path"
		"path freed":
			path.free()
			return "path was freed"
		"path outside the tree":
			snake["character"].remove_child(path)
			return "not inside the scene tree"
		"no curve":
			path.curve = null
			return "no curve"
		"empty curve":
			path.curve = Curve2D.new()
			return "fewer than two distinct points"
		"one point":
			path.curve = Characters.curve_through([Vector2(10, 10)])
			return "fewer than two distinct points"
		"every point in one place":
			path.curve = Characters.curve_through([Vector2(10, 10), Vector2(10, 10), Vector2(10, 10)])
			return "fewer than two distinct points"
		"a NaN point":
			path.curve.set_point_position(1, Vector2(NAN, 0))
			return "NaN, infinite"
		"an infinite point":
			path.curve.set_point_position(2, Vector2(0, INF))
			return "NaN, infinite"
		"a zero-scale path":
			path.scale = Vector2.ZERO
			return "zero scale"
		"a path squashed flat":
			path.scale = Vector2(1, 0)
			return "zero scale"
		"a NaN path position":
			path.position = Vector2(NAN, 3)
			return "NaN, infinite"
		"a zero-scale skeleton":
			snake["skeleton"].scale = Vector2.ZERO
			return "zero scale"
		"a freed bone":
			snake["bones"][2].free()
			return "freed"
	return "?"


func test_every_broken_setup_gives_one_message_and_no_nan() -> void:
	var cases := ["no path", "path freed", "path outside the tree", "no curve", "empty curve", "one point",
		"every point in one place", "a NaN point", "an infinite point", "a zero-scale path", "a path squashed flat",
		"a NaN path position", "a zero-scale skeleton", "a freed bone"]
	for case in cases:
		var snake := make_snake(Vector2(200, 300), 0)
		await get_tree().process_frame
		await get_tree().process_frame
		var chain: Node2D = snake["chain"]
		expect(chain.last_error >= 0.0 and chain.last_error < 0.01, "%s: a good solve first" % case)
		var bones: Array = snake["bones"]
		var before := rotations_of(bones)
		var errors := error_log.messages.size()
		var words := break_snake(snake, case)
		for i in 10:
			await get_tree().process_frame
		var live := bones.filter(func(b): return is_instance_valid(b))
		var messages := error_log.messages.slice(errors)
		expect(messages.size() == 1, "%s: one message, got %d: %s" % [case, messages.size(), messages])
		expect(messages.size() > 0 and words.to_lower() in messages[0].to_lower(), "%s: the message says why (%s)" % [case, messages])
		expect(all_finite(live), "%s: no NaN in any bone" % case)
		if live.size() == bones.size():
			expect(rotations_of(bones) == before, "%s: the bones keep their pose" % case)
		expect(chain.get_setup_warning() != "" or case == "a zero-scale skeleton", "%s: the warning says why" % case)
		expect(not chain.solve(), "%s: solve() refuses" % case)
		expect(error_log.messages.size() - errors == 1, "%s: still one message after solve()" % case)
		free_case(snake, ["chain", "character"])


func test_a_fixed_setup_solves_again() -> void:
	var snake := make_snake(Vector2(200, 300))
	var chain: Node2D = snake["chain"]
	var path: Path2D = snake["path"]
	var curve := path.curve
	path.curve = Curve2D.new()
	expect(not chain.solve(), "an empty curve refuses")
	path.curve = curve
	expect(chain.solve(), "the curve back: solves")
	expect(chain.get_setup_warning() == "", "no warning once good")
	path.scale = Vector2.ZERO
	expect(not chain.solve(), "a zero-scale path refuses")
	path.scale = Vector2.ONE
	expect(chain.solve(), "the scale back: solves")
	curve.set_point_position(1, Vector2(NAN, 0))
	expect(not chain.solve(), "a NaN point refuses")
	curve.set_point_position(1, Vector2(400, 120))
	expect(chain.solve(), "the point back: solves")
	expect(all_finite(snake["bones"]), "finite")


func test_solving_allocates_nothing_per_frame() -> void:
	if not ClassDB.class_exists("Reach2DDebug"):
		expect(false, "the debug build registers Reach2DDebug")
		return
	var fit := make_snake(Vector2(150, 250), 0)
	var follow := make_snake(Vector2(150, 450), 0)
	follow["chain"].mode = PathChain2D.MODE_FOLLOW
	follow["chain"].tip_follows_tangent = true
	follow["chain"].set_angle_limits(2, -0.3, 0.3)
	follow["chain"].weight = 0.7
	await wait_frames(5)
	var snakes := [fit, follow]
	var poses := snakes.map(func(s): return joints_of(s["bones"]))
	var moved := [0, 0]
	var baseline := allocations()
	for frame in 60:
		# The path moves (the polyline is placed again) and the offset slides; the curve does not change.
		fit["path"].position = Vector2(sin((frame + 1) * 0.2) * 20.0, 0)
		follow["chain"].offset = (frame + 1) * 4.0
		if frame == 30:
			fit["character"].scale = Vector2(-1, 1)
		await get_tree().process_frame
		for i in 2:
			var now := joints_of(snakes[i]["bones"])
			if now != poses[i]:
				moved[i] += 1
			poses[i] = now
	var used := allocations() - baseline
	expect(used == 0, "60 frames of two PathChain2D made %d heap allocations in the nodes' code" % used)
	expect(fit["chain"].last_error >= 0.0 and follow["chain"].last_error >= 0.0, "both solved")
	expect(moved == [60, 60], "both chains moved their bones every frame (fit %d, follow %d of 60)" % moved)


func test_runs_after_ik_nodes_above_it_and_in_solve_all_order() -> void:
	# A tail hangs from a FabrikChain2D's arm (its root bone a child of the arm's end) and fits a curve that stays in
	# the world: it runs in from the arm's end to the curve and follows it. The arm reaches for a moving target; had
	# the tail run first, its chain would be carried off the curve by the arm's motion of this frame.
	for by_hand in [false, true]:
		var mode := 2 if by_hand else 0
		var skeleton := make_chain([60.0, 50.0], [0.3, 0.4], Vector2.ONE, Vector2(300, 300))
		var arm := bones_of(skeleton)
		var target := make_target(Vector2(380, 360))
		var ik := make_ik("FabrikChain2D", skeleton, target, 0, 1, mode)
		var tail := Rig.chain(arm[1], [20.0, 20.0, 20.0, 20.0, 20.0, 20.0], [], "tail_%d", [])
		tail[0].position = Vector2(50, 0)
		var path := Path2D.new()
		path.curve = Characters.curve_through([Vector2(380, 380), Vector2(600, 420)], [Vector2(60, 0), Vector2(60, 0)])
		add_child(path)
		var chain: Node2D = ClassDB.instantiate("PathChain2D")
		chain.update_mode = mode
		chain.path = path
		chain.root_bone = tail[0]
		chain.tip_bone = tail[-1]
		add_child(chain)
		var dense := Characters.dense_curve(path)
		var worst := 0.0
		var moved := 0.0
		for frame in 20:
			target.global_position = Vector2(380, 360) + Vector2(cos(frame * 0.7), sin(frame * 0.5)) * 40.0
			var before := bone_end(arm[1])
			if by_hand:
				Reach2D.solve_all([ik, chain])
			else:
				await get_tree().process_frame
			moved = maxf(moved, bone_end(arm[1]).distance_to(before))
			if frame >= 2:
				worst = maxf(worst, Characters.distance_from_curve(dense, bone_end(tail[-1])))
		var how := "Reach2D.solve_all([ik, chain])" if by_hand else "the batch, tree order"
		print("PathChain2D after a FabrikChain2D (%s): the arm's end moved up to %.1f px a frame; worst tail tip off the curve %.4f px" % [how, moved, worst])
		expect(moved > 10.0, "%s: the arm moved (%s px a frame)" % [how, moved])
		expect(worst <= 0.5, "%s: the tail fits from the arm's solved pose of this frame (%s px off)" % [how, worst])
		for node in [chain, path, ik, target, skeleton]:
			node.free()


## Every validated float (Nodes.CHECKED_FLOATS) refuses values out of its range with one error, keeps its value, and
## the chain still fits without a NaN; `mode` refuses what is none of its constants.
func test_out_of_range_values_are_refused_once() -> void:
	var snake := make_snake(Vector2(200, 300))
	var chain: Node2D = snake["chain"]
	for property in Nodes.CHECKED_FLOATS["PathChain2D"]:
		for value in [NAN, INF, -INF, 1e30, -1e30, -1.0 if property == "weight" else 2e6, 1.5 if property == "weight" else -2e6]:
			var before: float = chain.get(property)
			var errors := error_log.messages.size()
			chain.set(property, value)
			expect(chain.get(property) == before, "%s = %s refused (kept %s, got %s)" % [property, value, before, chain.get(property)])
			expect(error_log.messages.size() - errors == 1, "%s = %s: one error, got %d" % [property, value, error_log.messages.size() - errors])
	for value in [-1, 2, 1 << 40]:
		var errors := error_log.messages.size()
		chain.mode = value
		expect(chain.mode == PathChain2D.MODE_FIT and error_log.messages.size() - errors == 1, "mode = %s refused with one error" % value)
	chain.offset = 1e6
	chain.offset = -1e6
	expect(chain.offset == -1e6, "the documented bounds are accepted")
	expect(chain.solve() and all_finite(snake["bones"]), "still fits, no NaN (the offset far before the start)")
