extends "res://lib/test_case.gd"
## LookAt2D.angle_offset: the bone direction rotated by the offset (in the bone's own space) faces the target,
## exactly under every mirror setup, and a mirrored character gets the mirror image.

const OFFSETS := [0.0, PI / 2, -PI / 2, -2.0, 3.0, PI]


## The global direction of bone `b`'s axis at `angle` in its own space.
func axis_of(b: Bone2D, angle: float) -> Vector2:
	return b.global_transform.basis_xform(Vector2.from_angle(angle))


func test_offset_direction_faces_the_target_under_mirroring() -> void:
	var worst := 0.0
	for setup in MirrorRig.SETUPS:
		for offset in OFFSETS:
			var case := MirrorRig.make(self, setup)
			var head: Bone2D = case["bones"][3]
			head.set_bone_angle(0.3)
			var target := make_target(head.global_position + Vector2(-37, 81))
			var look: Node2D = make_ik("LookAt2D", case["skeleton"], target, 3)
			look.angle_offset = offset
			expect(look.solve(), "%s offset %s: solved" % [setup, offset])
			var facing := axis_of(head, head.get_bone_angle() + offset)
			var wanted := target.global_position - head.global_position
			var off := absf(facing.angle_to(wanted))
			worst = maxf(worst, off)
			expect(off < 1e-3, "%s offset %s: the offset direction faces the target (off by %s rad)" % [setup, offset, off])
			expect(look.last_error < 1e-3, "%s offset %s: last_error %s" % [setup, offset, look.last_error])
			if offset != 0.0:
				var own := absf(axis_of(head, head.get_bone_angle()).angle_to(wanted))
				expect(absf(own - absf(angle_difference(0.0, offset))) < 1e-3, "%s offset %s: the bone itself is turned away by the offset (%s)" % [setup, offset, own])
			for node in [case["character"], target, look]:
				node.free()
	print("LookAt2D angle_offset: worst angle between the offset direction and the target over %d setups x %d offsets: %.7f rad" % [MirrorRig.SETUPS.size(), OFFSETS.size(), worst])


func test_mirrored_character_looks_the_mirrored_way() -> void:
	var a := MirrorRig.make(self, "none", [0.4, -0.9, 0.8, -0.5], "A")
	var b := MirrorRig.make(self, "none", [0.4, -0.9, 0.8, -0.5], "B")
	b["character"].scale = Vector2(-1, 1)
	var axis: float = a["character"].global_position.x
	var goal := Vector2(520, 220)
	var ta := make_target(goal)
	var tb := make_target(mirror_point(goal, axis))
	var la: Node2D = make_ik("LookAt2D", a["skeleton"], ta, 3)
	var lb: Node2D = make_ik("LookAt2D", b["skeleton"], tb, 3)
	la.angle_offset = PI / 2
	lb.angle_offset = PI / 2
	var drawn: float = a["bones"][3].rotation
	expect(la.solve() and lb.solve(), "both heads solve")
	expect(absf(angle_difference(drawn, a["bones"][3].rotation)) > 0.05, "the head turned toward its target")
	expect(la.last_error < 1e-3 and lb.last_error < 1e-3, "both heads face their targets (%s, %s)" % [la.last_error, lb.last_error])
	var ea := bone_end(a["bones"][3])
	var eb := bone_end(b["bones"][3])
	var diff := mirror_point(ea, axis).distance_to(eb)
	expect(diff < 1e-3, "the mirrored head's end is the mirror image (off by %s px)" % diff)
	expect(absf(angle_difference(a["bones"][3].rotation, b["bones"][3].rotation)) < 1e-5, "same local rotation on both")
	print("LookAt2D angle_offset 90 deg, mirrored character: mirror image within %.6f px" % diff)
	for node in [a["character"], b["character"], ta, tb, la, lb]:
		node.free()
