extends "res://lib/test_case.gd"
## SpringChain2D's local narrow phase (spring_collision.rs, reach2d_core::LocalWorld) against every shape type it
## reads, on real Skeleton2D/Bone2D rigs (bone_angle != 0) in the scene's physics space. Each case runs the same
## 150 frames twice: once answered by the local narrow phase and once by the engine's own queries
## (Reach2DDebug.set_spring_engine_queries), and checks that the path it expected answered (the counters), that the
## tail touched the obstacle, that no bone end ever overlaps it (asked of the engine itself: a circle of the radius
## less 0.05 px finds nothing), and how far apart the two runs' joints end up. Shapes the local world cannot hold
## (a non-uniformly scaled circle: an ellipse; a one-way shape) must go to the engine and give its answers exactly.

const RADIUS := 5.0
const DOWN := Vector2(0, 980)


func debug(method: String, arg = null):
	if arg == null:
		return ClassDB.class_call_static("Reach2DDebug", method)
	return ClassDB.class_call_static("Reach2DDebug", method, arg)


## A body (StaticBody2D, or Area2D when `area`) at `at` holding `shape` (a Shape2D, or a CollisionPolygon2D node).
func make_obstacle(at: Vector2, shape, rotation := 0.0, scale := Vector2.ONE, area := false) -> CollisionObject2D:
	var body: CollisionObject2D = Area2D.new() if area else StaticBody2D.new()
	body.position = at
	body.rotation = rotation
	body.scale = scale
	if shape is Node:
		body.add_child(shape)
	else:
		var holder := CollisionShape2D.new()
		holder.shape = shape
		body.add_child(holder)
	add_child(body)
	return body


## `true` when a circle of `radius` at `p` overlaps any shape on layer 1, as the engine sees it.
func engine_overlaps(p: Vector2, radius: float, areas: bool) -> bool:
	var query := PhysicsShapeQueryParameters2D.new()
	var circle := CircleShape2D.new()
	circle.radius = radius
	query.shape = circle
	query.transform = Transform2D(0.0, p)
	query.collide_with_areas = areas
	return not get_viewport().world_2d.direct_space_state.intersect_shape(query, 1).is_empty()


## The tail every case hangs onto its obstacle: four 30 px bones (bone angle 0.25) from a character at (300, 150).
func hanging_tail() -> Dictionary:
	return Characters.with_tail(self, Vector2(300, 150), [30.0, 30.0, 30.0, 30.0], [1.2, 0.1, 0.1, 0.1], 0.25)


## One run of 150 frames: a tail hanging from a swaying character onto the obstacle `build` makes. Returns the
## joints of every frame, the frames in contact, the worst overlap found, and the path counters' changes.
func run(build: Callable, engine: bool, areas := false) -> Dictionary:
	debug("set_spring_engine_queries", engine)
	var obstacle: Node = build.call()
	var case := hanging_tail()
	var spring := make_spring(case["bones"], 2, true)
	spring.collision_radius = RADIUS
	spring.collide_with_areas = areas
	spring.gravity = DOWN
	spring.stiffness = 30.0
	spring.damping = 3.0
	await settle_physics()
	var counts := [debug("spring_local_steps"), debug("spring_engine_steps")]
	var joints := []
	var touching := 0
	var inside := 0
	for frame in 150:
		case["character"].position = Vector2(300 + 60.0 * sin(frame / 60.0 * 1.5), 150)
		spring.advance(1.0 / 60.0)
		var js := joints_of(case["bones"])
		joints.append(js)
		var touched := false
		for i in range(1, js.size()):
			if engine_overlaps(js[i], RADIUS - 0.05, areas):
				inside += 1
			touched = touched or engine_overlaps(js[i], RADIUS + 1.0, areas)
		touching += int(touched)
	var result := {
		"joints": joints, "touching": touching, "inside": inside,
		"local": debug("spring_local_steps") - counts[0], "engine": debug("spring_engine_steps") - counts[1],
	}
	for node in [case["character"], spring, obstacle]:
		node.free()
	debug("set_spring_engine_queries", false)
	return result


## Runs `build` both ways and checks them; `local` says which path the local run must take. `solid`: the ends
## never come within their radius of it (a two-sided segment can be passed at its end or slid around on either
## path; there the local run may only overlap it as often as the engine's).
func check_case(name: String, build: Callable, local := true, areas := false, solid := true) -> float:
	var ours: Dictionary = await run(build, false, areas)
	var theirs: Dictionary = await run(build, true, areas)
	var apart := 0.0
	for f in ours["joints"].size():
		apart = maxf(apart, largest_distance(ours["joints"][f], theirs["joints"][f]))
	expect(ours["touching"] > 10, "%s: the tail touches the obstacle (%d frames)" % [name, ours["touching"]])
	if solid and local:
		expect(ours["inside"] == 0, "%s: local path: no end overlaps the obstacle (%d overlaps)" % [name, ours["inside"]])
		expect(theirs["inside"] == 0, "%s: engine path: no end overlaps the obstacle (%d)" % [name, theirs["inside"]])
	elif local:
		expect(ours["inside"] <= theirs["inside"], "%s: local path overlaps no more often than the engine's (%d vs %d)" % [name, ours["inside"], theirs["inside"]])
	expect(ours["local"] + ours["engine"] > 0 and theirs["local"] == 0 and theirs["engine"] > 0, "%s: the forced run asks the engine (%s)" % [name, theirs])
	if local:
		expect(ours["local"] > 0 and ours["engine"] == 0, "%s: the local narrow phase answers (%d local, %d engine steps)" % [name, ours["local"], ours["engine"]])
	else:
		expect(ours["local"] == 0 and ours["engine"] > 0, "%s: falls back to the engine (%d local, %d engine steps)" % [name, ours["local"], ours["engine"]])
		expect(apart == 0.0, "%s: the fallback is the engine path itself (%s px apart)" % [name, apart])
	expect(apart < 0.5, "%s: the local and engine runs stay within 0.5 px (%s px)" % [name, apart])
	print("%s: local and engine runs %s px apart (worst joint over 150 frames), %d frames touching" % [name, apart, ours["touching"]])
	return apart


func rect(size: Vector2) -> RectangleShape2D:
	var shape := RectangleShape2D.new()
	shape.size = size
	return shape


func circle(radius: float) -> CircleShape2D:
	var shape := CircleShape2D.new()
	shape.radius = radius
	return shape


func test_every_shape_the_local_narrow_phase_reads_keeps_the_ends_out_like_the_engine() -> void:
	var apart := {}
	apart["circle"] = await check_case("circle", func(): return make_obstacle(Vector2(340, 280), circle(40)))
	apart["capsule"] = await check_case("capsule", func():
		var capsule := CapsuleShape2D.new()
		capsule.radius = 15
		capsule.height = 120
		return make_obstacle(Vector2(330, 265), capsule, 1.2))
	apart["convex polygon"] = await check_case("convex polygon", func():
		var convex := ConvexPolygonShape2D.new()
		convex.points = PackedVector2Array([Vector2(-80, 20), Vector2(-20, -25), Vector2(40, -30), Vector2(90, 10), Vector2(10, 40)])
		return make_obstacle(Vector2(320, 270), convex))
	apart["rotated, scaled rectangle"] = await check_case("rotated, scaled rectangle", func():
		return make_obstacle(Vector2(320, 280), rect(Vector2(120, 30)), 0.4, Vector2(1.5, 1.5)))
	apart["mirrored rectangle"] = await check_case("mirrored rectangle (scale -1.3, 1.3)", func():
		return make_obstacle(Vector2(320, 280), rect(Vector2(120, 30)), 0.3, Vector2(-1.3, 1.3)))
	apart["skewed rectangle"] = await check_case("non-uniformly scaled rectangle", func():
		return make_obstacle(Vector2(320, 280), rect(Vector2(60, 30)), -0.2, Vector2(2.0, 0.7)))
	apart["mirrored circle"] = await check_case("mirrored circle (scale -1.5, 1.5)", func():
		return make_obstacle(Vector2(340, 280), circle(25), 0.7, Vector2(-1.5, 1.5)))
	apart["world boundary"] = await check_case("world boundary", func():
		var boundary := WorldBoundaryShape2D.new()
		boundary.normal = Vector2(0.2, -1).normalized()
		return make_obstacle(Vector2(300, 260), boundary))
	apart["segments"] = await check_case("CollisionPolygon2D in segments mode", func():
		var polygon := CollisionPolygon2D.new()
		polygon.build_mode = CollisionPolygon2D.BUILD_SEGMENTS
		polygon.polygon = PackedVector2Array([Vector2(-150, -40), Vector2(-40, 10), Vector2(60, 0), Vector2(150, -60), Vector2(150, 40), Vector2(-150, 40)])
		return make_obstacle(Vector2(320, 270), polygon), true, false, false)
	apart["segment"] = await check_case("segment", func():
		var segment := SegmentShape2D.new()
		segment.a = Vector2(-150, 10)
		segment.b = Vector2(150, -20)
		return make_obstacle(Vector2(320, 260), segment), true, false, false)
	apart["area"] = await check_case("Area2D with collide_with_areas", func():
		return make_obstacle(Vector2(320, 280), rect(Vector2(300, 30)), 0.0, Vector2.ONE, true), true, true)
	print("local vs engine, worst joint apart: %s" % [apart])


func test_shapes_it_cannot_hold_go_to_the_engine() -> void:
	await check_case("non-uniformly scaled circle", func():
		return make_obstacle(Vector2(340, 280), circle(25), 0.3, Vector2(2.0, 1.0)), false)
	await check_case("one-way rectangle", func():
		var body := make_obstacle(Vector2(320, 280), rect(Vector2(300, 30)))
		body.get_child(0).one_way_collision = true
		return body, false)


func test_areas_off_and_disabled_shapes_are_not_there() -> void:
	# An Area2D with collide_with_areas off, and a disabled shape: the tail hangs through both, on either path.
	for engine in [false, true]:
		debug("set_spring_engine_queries", engine)
		var area := make_obstacle(Vector2(320, 250), rect(Vector2(300, 30)), 0.0, Vector2.ONE, true)
		var disabled := make_obstacle(Vector2(320, 250), rect(Vector2(300, 30)))
		disabled.get_child(0).disabled = true
		var case := hanging_tail()
		var spring := make_spring(case["bones"], 2, true)
		spring.gravity = DOWN
		spring.stiffness = 30.0
		await settle_physics()
		var lowest := -INF
		for frame in 120:
			spring.advance(1.0 / 60.0)
			lowest = maxf(lowest, joints_of(case["bones"])[-1].y)
		expect(lowest > 250.0, "engine path %s: the tail hangs through the area and the disabled shape (tip down to %s)" % [engine, lowest])
		for node in [case["character"], spring, area, disabled]:
			node.free()
	debug("set_spring_engine_queries", false)


func test_a_tile_map_layer_floor_goes_to_the_engine() -> void:
	# A TileMapLayer's tiles are shapes of a body the layer owns; its collider is no CollisionObject2D, so whether a
	# tile's polygon is one-way cannot be read per shape: the chain asks the engine, with the engine's answers.
	await check_case("TileMapLayer floor", func():
		var tiles := TileSet.new()
		tiles.tile_size = Vector2i(32, 32)
		tiles.add_physics_layer()
		tiles.set_physics_layer_collision_layer(0, 1)
		var source := TileSetAtlasSource.new()
		var texture := PlaceholderTexture2D.new()
		texture.size = Vector2(32, 32)
		source.texture = texture
		source.texture_region_size = Vector2i(32, 32)
		tiles.add_source(source, 0)
		source.create_tile(Vector2i.ZERO)
		var data := source.get_tile_data(Vector2i.ZERO, 0)
		data.add_collision_polygon(0)
		data.set_collision_polygon_points(0, 0, PackedVector2Array([Vector2(-16, -16), Vector2(16, -16), Vector2(16, 16), Vector2(-16, 16)]))
		var layer := TileMapLayer.new()
		layer.tile_set = tiles
		for x in range(4, 16):
			layer.set_cell(Vector2i(x, 8), 0, Vector2i.ZERO)
		layer.update_internals()
		add_child(layer)
		return layer, false)
