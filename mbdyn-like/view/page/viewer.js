// mbdyn-like view: animates a run in the browser with three.js (docs/viewer.md). The data block
// holds the model once (nodes, bodies, beams, surfaces, joints, aerodynamic surfaces) and, per
// record, the node states as flat arrays: X (3 per node), Q (quaternion x y z w), XP, Omega.
(function () {
  'use strict';
  const D = JSON.parse(document.getElementById('mbl-data').textContent);
  const NN = D.nodes.length, NR = D.time.length;
  const X = Float64Array.from(D.X, v => (v === null ? NaN : v));
  const Q = Float64Array.from(D.Q, v => (v === null ? 0 : v));
  const XP = Float64Array.from(D.XP, v => (v === null ? NaN : v));
  const W = Float64Array.from(D.Omega, v => (v === null ? NaN : v));
  const $ = id => document.getElementById(id);

  // ---- the state drawn: positions and orientations of every node (a record, or a mode) ----
  const pos = new Float64Array(3 * NN), quat = new Float64Array(4 * NN);
  let record = 0;

  // p = x_n + R_n f (f in the node frame), into out[o..o+2].
  function pointOf(n, f0, f1, f2, out, o) {
    const qx = quat[4 * n], qy = quat[4 * n + 1], qz = quat[4 * n + 2], qw = quat[4 * n + 3];
    // v' = v + 2 w (q x v) + 2 q x (q x v)
    const tx = 2 * (qy * f2 - qz * f1), ty = 2 * (qz * f0 - qx * f2), tz = 2 * (qx * f1 - qy * f0);
    out[o] = pos[3 * n] + f0 + qw * tx + (qy * tz - qz * ty);
    out[o + 1] = pos[3 * n + 1] + f1 + qw * ty + (qz * tx - qx * tz);
    out[o + 2] = pos[3 * n + 2] + f2 + qw * tz + (qx * ty - qy * tx);
  }

  // ---- size of the model: the box of every node over every record and the ground points ----
  const box = new THREE.Box3();
  const v3 = new THREE.Vector3();
  for (let i = 0; i < X.length; i += 3)
    if (isFinite(X[i]) && isFinite(X[i + 1]) && isFinite(X[i + 2])) box.expandByPoint(v3.set(X[i], X[i + 1], X[i + 2]));
  for (const j of D.joints) for (const g of j.ground || []) box.expandByPoint(v3.set(g[0], g[1], g[2]));
  // ... and the points of joints and bodies (offsets from their nodes) at a few records.
  {
    const attached = [];
    for (const j of D.joints) for (const p of j.pts) attached.push(p);
    for (const b of D.bodies) attached.push(b.pts[0]);
    const out = new Float64Array(3), step = Math.max(1, Math.floor(NR / 20));
    for (let r = 0; r < NR && attached.length; r = (r + step < NR || r === NR - 1) ? r + step : NR - 1) {
      pos.set(X.subarray(3 * NN * r, 3 * NN * (r + 1)));
      quat.set(Q.subarray(4 * NN * r, 4 * NN * (r + 1)));
      for (const p of attached) {
        pointOf(p[0], p[1], p[2], p[3], out, 0);
        if (isFinite(out[0]) && isFinite(out[1]) && isFinite(out[2])) box.expandByPoint(v3.set(out[0], out[1], out[2]));
      }
    }
  }
  if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
  const L = Math.max(box.getSize(new THREE.Vector3()).length(), 1e-6);

  // ---- scene ----
  const host = $('mbl-scene');
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  renderer.setClearColor(0xffffff);
  host.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(40, 1, L * 1e-4, L * 100);
  camera.up.set(0, 0, 1);
  const controls = new THREE.OrbitControls(camera, renderer.domElement);
  controls.addEventListener('change', () => render());
  scene.add(new THREE.AmbientLight(0xffffff, 0.55));
  const sun = new THREE.DirectionalLight(0xffffff, 0.6);
  sun.position.set(1, -2, 3);
  scene.add(sun);
  const axes = new THREE.AxesHelper(0.1 * L);
  scene.add(axes);

  function dynamicAttribute(array, size) {
    const a = new THREE.BufferAttribute(array, size);
    a.setUsage ? a.setUsage(THREE.DynamicDrawUsage) : (a.dynamic = true);
    return a;
  }

  // Nodes: points (dummy nodes faded) sharing their positions with the surfaces.
  const nodePositions = dynamicAttribute(new Float32Array(3 * NN), 3);
  const nodeColors = new Float32Array(3 * NN);
  D.nodes.forEach((n, i) => nodeColors.set(n.dummy ? [0.75, 0.75, 0.8] : [0.1, 0.1, 0.15], 3 * i));
  const pointsGeometry = new THREE.BufferGeometry();
  pointsGeometry.setAttribute('position', nodePositions);
  pointsGeometry.setAttribute('color', new THREE.BufferAttribute(nodeColors, 3));
  const points = new THREE.Points(pointsGeometry, new THREE.PointsMaterial({
    size: 6, sizeAttenuation: false, vertexColors: THREE.VertexColors }));
  points.frustumCulled = false;
  scene.add(points);

  // Triads: three segments per rigid node, red/green/blue along the node's axes 1/2/3.
  const triadLength = 0.035 * L;
  const triadPositions = dynamicAttribute(new Float32Array(18 * NN), 3);
  const triadColors = new Float32Array(18 * NN);
  D.nodes.forEach((n, i) => {
    const fade = n.dummy ? 0.65 : 0;
    const c = [[1, fade, fade], [fade, 0.7 + 0.3 * fade, fade], [fade, fade, 1]];
    for (let a = 0; a < 3; ++a)
      for (let e = 0; e < 2; ++e) triadColors.set(c[a], 18 * i + 6 * a + 3 * e);
  });
  const triadGeometry = new THREE.BufferGeometry();
  triadGeometry.setAttribute('position', triadPositions);
  triadGeometry.setAttribute('color', new THREE.BufferAttribute(triadColors, 3));
  const triads = new THREE.LineSegments(triadGeometry, new THREE.LineBasicMaterial({ vertexColors: THREE.VertexColors }));
  triads.frustumCulled = false;
  scene.add(triads);

  // Beams: tubes through their points (a parabola through the three points of a beam3).
  const SEG3 = 8, RING = 6, tubeRadius = 0.004 * L;
  const beamSamples = [];  // per sample: [beam index, xi]
  const beamParts = D.beams.map(b => {
    const n = b.pts.length === 3 ? SEG3 : 1;
    const first = beamSamples.length;
    for (let s = 0; s <= n; ++s) beamSamples.push(-1 + 2 * s / n);
    return { pts: b.pts, first, count: n + 1 };
  });
  const NS = beamSamples.length;
  const tubePositions = dynamicAttribute(new Float32Array(3 * RING * NS), 3);
  const tubeNormals = dynamicAttribute(new Float32Array(3 * RING * NS), 3);
  const tubeIndex = [];
  for (const b of beamParts)
    for (let s = 0; s + 1 < b.count; ++s)
      for (let k = 0; k < RING; ++k) {
        const a0 = (b.first + s) * RING, a1 = a0 + RING, k1 = (k + 1) % RING;
        tubeIndex.push(a0 + k, a1 + k, a1 + k1, a0 + k, a1 + k1, a0 + k1);
      }
  const tubeGeometry = new THREE.BufferGeometry();
  tubeGeometry.setAttribute('position', tubePositions);
  tubeGeometry.setAttribute('normal', tubeNormals);
  tubeGeometry.setIndex(tubeIndex);
  const tubes = new THREE.Mesh(tubeGeometry, new THREE.MeshPhongMaterial({ color: 0x3a78c2, shininess: 30 }));
  tubes.frustumCulled = false;
  scene.add(tubes);
  const samplePoint = new Float64Array(3 * NS), beamEnds = new Float64Array(9);

  // Shells and membranes: two triangles per quad over the node positions, edges drawn.
  const quadIndex = [], edgeIndex = [];
  for (const s of D.surfaces) {
    const [a, b, c, d] = s.pts.map(p => p[0]);
    quadIndex.push(a, b, c, a, c, d);
    edgeIndex.push(a, b, b, c, c, d, d, a);
  }
  const surfaceGeometry = new THREE.BufferGeometry();
  surfaceGeometry.setAttribute('position', nodePositions);
  surfaceGeometry.setIndex(quadIndex);
  const surfaces = new THREE.Mesh(surfaceGeometry, new THREE.MeshPhongMaterial({
    color: 0x6aa84f, side: THREE.DoubleSide, flatShading: true, transparent: true, opacity: 0.85 }));
  surfaces.frustumCulled = false;
  const edgeGeometry = new THREE.BufferGeometry();
  edgeGeometry.setAttribute('position', nodePositions);
  edgeGeometry.setIndex(edgeIndex);
  const edges = new THREE.LineSegments(edgeGeometry, new THREE.LineBasicMaterial({ color: 0x2d5a1e }));
  edges.frustumCulled = false;
  if (D.surfaces.length) { scene.add(surfaces); scene.add(edges); }

  // Aerodynamic surfaces: quads between the trailing and leading edges of consecutive sections.
  const aeroEdges = [];
  for (const a of D.aero) aeroEdges.push(a.edges);
  const aeroQuads = aeroEdges.reduce((n, e) => n + e.length - 1, 0);
  const aeroPositions = dynamicAttribute(new Float32Array(18 * Math.max(aeroQuads, 0)), 3);
  const aeroGeometry = new THREE.BufferGeometry();
  aeroGeometry.setAttribute('position', aeroPositions);
  const aero = new THREE.Mesh(aeroGeometry, new THREE.MeshPhongMaterial({
    color: 0xd9a441, side: THREE.DoubleSide, flatShading: true, transparent: true, opacity: 0.6 }));
  aero.frustumCulled = false;
  if (aeroQuads > 0) scene.add(aero);

  // Bodies: spheres at the centres of mass, radius growing with the cube root of the mass.
  const massMax = D.bodies.reduce((m, b) => Math.max(m, Math.abs(b.mass || 0)), 0) || 1;
  const bodyMesh = new THREE.InstancedMesh(new THREE.SphereBufferGeometry(1, 16, 12),
    new THREE.MeshPhongMaterial({ color: 0xc0504d, transparent: true, opacity: 0.8 }), Math.max(D.bodies.length, 1));
  bodyMesh.count = D.bodies.length;
  bodyMesh.frustumCulled = false;
  // (smaller when there are many: a chain of lumped masses stays readable)
  const bodyRadiusMax = 0.04 * L / Math.max(1, Math.sqrt(D.bodies.length) / 1.5);
  const bodyRadius = D.bodies.map(b => bodyRadiusMax * (0.3 + 0.7 * Math.cbrt(Math.abs(b.mass || 0) / massMax)));
  if (D.bodies.length) scene.add(bodyMesh);

  // Joints: a small octahedron at each point, and at ground points.
  const jointPoints = [];   // [node, f0, f1, f2] or [-1, x, y, z]
  for (const j of D.joints) {
    for (const p of j.pts) jointPoints.push(p);
    for (const g of j.ground || []) jointPoints.push([-1, g[0], g[1], g[2]]);
  }
  const jointMesh = new THREE.InstancedMesh(new THREE.OctahedronBufferGeometry(0.012 * L),
    new THREE.MeshPhongMaterial({ color: 0xe69138 }), Math.max(jointPoints.length, 1));
  jointMesh.count = jointPoints.length;
  jointMesh.frustumCulled = false;
  if (jointPoints.length) scene.add(jointMesh);
  // A thin line from each node to the joint points it carries (a pendulum's rod to its pin).
  const links = jointPoints.filter(p => p[0] >= 0 && Math.hypot(p[1], p[2], p[3]) > 1e-9 * L);
  const linkPositions = dynamicAttribute(new Float32Array(6 * Math.max(links.length, 1)), 3);
  const linkGeometry = new THREE.BufferGeometry();
  linkGeometry.setAttribute('position', linkPositions);
  linkGeometry.setDrawRange(0, 2 * links.length);
  const linkLines = new THREE.LineSegments(linkGeometry, new THREE.LineBasicMaterial({ color: 0x888888 }));
  linkLines.frustumCulled = false;
  if (links.length) scene.add(linkLines);

  // The node clicked: a ring marker and its trajectory.
  let selected = -1;
  const marker = new THREE.Mesh(new THREE.SphereBufferGeometry(0.015 * L, 16, 12),
    new THREE.MeshBasicMaterial({ color: 0xff00ff, transparent: true, opacity: 0.5 }));
  marker.visible = false;
  scene.add(marker);
  const trajectoryGeometry = new THREE.BufferGeometry();
  const trajectory = new THREE.Line(trajectoryGeometry, new THREE.LineBasicMaterial({ color: 0xff00ff }));
  trajectory.visible = false;
  trajectory.frustumCulled = false;
  scene.add(trajectory);

  // ---- moving the scene to the state in pos/quat ----
  const m4 = new THREE.Matrix4(), q4 = new THREE.Quaternion(), s3 = new THREE.Vector3();
  const tmp = new Float64Array(3);
  function updateScene() {
    const np = nodePositions.array, tp = triadPositions.array;
    for (let n = 0; n < NN; ++n) {
      const x = pos[3 * n], y = pos[3 * n + 1], z = pos[3 * n + 2];
      np[3 * n] = x; np[3 * n + 1] = y; np[3 * n + 2] = z;
      const o = 18 * n;
      if (D.nodes[n].rigid) {
        for (let a = 0; a < 3; ++a) {
          tp[o + 6 * a] = x; tp[o + 6 * a + 1] = y; tp[o + 6 * a + 2] = z;
          pointOf(n, a === 0 ? triadLength : 0, a === 1 ? triadLength : 0, a === 2 ? triadLength : 0, tp, o + 6 * a + 3);
        }
      } else {
        for (let k = 0; k < 18; k += 3) { tp[o + k] = x; tp[o + k + 1] = y; tp[o + k + 2] = z; }
      }
    }
    nodePositions.needsUpdate = true;
    triadPositions.needsUpdate = true;
    if (NS) updateBeams();
    if (aeroQuads > 0) updateAero();
    for (let b = 0; b < D.bodies.length; ++b) {
      const p = D.bodies[b].pts[0];
      pointOf(p[0], p[1], p[2], p[3], tmp, 0);
      const n = p[0];
      q4.set(quat[4 * n], quat[4 * n + 1], quat[4 * n + 2], quat[4 * n + 3]);
      const r = bodyRadius[b];
      m4.compose(v3.set(tmp[0], tmp[1], tmp[2]), q4, s3.set(r, r, r));
      bodyMesh.setMatrixAt(b, m4);
    }
    if (D.bodies.length) bodyMesh.instanceMatrix.needsUpdate = true;
    q4.set(0, 0, 0, 1);
    for (let j = 0; j < jointPoints.length; ++j) {
      const p = jointPoints[j];
      if (p[0] < 0) { tmp[0] = p[1]; tmp[1] = p[2]; tmp[2] = p[3]; } else pointOf(p[0], p[1], p[2], p[3], tmp, 0);
      m4.compose(v3.set(tmp[0], tmp[1], tmp[2]), q4, s3.set(1, 1, 1));
      jointMesh.setMatrixAt(j, m4);
    }
    if (jointPoints.length) jointMesh.instanceMatrix.needsUpdate = true;
    const lp = linkPositions.array;
    for (let k = 0; k < links.length; ++k) {
      const p = links[k], n = p[0];
      lp[6 * k] = pos[3 * n]; lp[6 * k + 1] = pos[3 * n + 1]; lp[6 * k + 2] = pos[3 * n + 2];
      pointOf(n, p[1], p[2], p[3], lp, 6 * k + 3);
    }
    if (links.length) linkPositions.needsUpdate = true;
    if (selected >= 0) marker.position.set(pos[3 * selected], pos[3 * selected + 1], pos[3 * selected + 2]);
  }

  function updateBeams() {
    // Sample points: Lagrange interpolation of the beam's points over xi in [-1, 1].
    for (const b of beamParts) {
      for (let i = 0; i < b.pts.length; ++i) { const p = b.pts[i]; pointOf(p[0], p[1], p[2], p[3], beamEnds, 3 * i); }
      for (let s = 0; s < b.count; ++s) {
        const xi = beamSamples[b.first + s], o = 3 * (b.first + s);
        let w;
        if (b.pts.length === 3) w = [0.5 * xi * (xi - 1), 1 - xi * xi, 0.5 * xi * (xi + 1)];
        else w = [0.5 * (1 - xi), 0.5 * (1 + xi), 0];
        for (let c = 0; c < 3; ++c) samplePoint[o + c] = w[0] * beamEnds[c] + w[1] * beamEnds[3 + c] + w[2] * beamEnds[6 + c];
      }
    }
    // Rings around each sample, normal to the local tangent.
    const P = tubePositions.array, N = tubeNormals.array;
    for (const b of beamParts) {
      for (let s = 0; s < b.count; ++s) {
        const i = b.first + s, a = b.first + Math.max(s - 1, 0), c = b.first + Math.min(s + 1, b.count - 1);
        let tx = samplePoint[3 * c] - samplePoint[3 * a], ty = samplePoint[3 * c + 1] - samplePoint[3 * a + 1],
          tz = samplePoint[3 * c + 2] - samplePoint[3 * a + 2];
        const tl = Math.hypot(tx, ty, tz) || 1; tx /= tl; ty /= tl; tz /= tl;
        // a first normal: tangent x the axis least along it
        const ax = Math.abs(tx), ay = Math.abs(ty), az = Math.abs(tz);
        let ux = 0, uy = 0, uz = 0;
        if (ax <= ay && ax <= az) ux = 1; else if (ay <= az) uy = 1; else uz = 1;
        let nx = ty * uz - tz * uy, ny = tz * ux - tx * uz, nz = tx * uy - ty * ux;
        const nl = Math.hypot(nx, ny, nz) || 1; nx /= nl; ny /= nl; nz /= nl;
        const bx = ty * nz - tz * ny, by = tz * nx - tx * nz, bz = tx * ny - ty * nx;
        for (let k = 0; k < RING; ++k) {
          const ang = 2 * Math.PI * k / RING, cs = Math.cos(ang), sn = Math.sin(ang);
          const ex = cs * nx + sn * bx, ey = cs * ny + sn * by, ez = cs * nz + sn * bz, o = 3 * (i * RING + k);
          N[o] = ex; N[o + 1] = ey; N[o + 2] = ez;
          P[o] = samplePoint[3 * i] + tubeRadius * ex; P[o + 1] = samplePoint[3 * i + 1] + tubeRadius * ey;
          P[o + 2] = samplePoint[3 * i + 2] + tubeRadius * ez;
        }
      }
    }
    tubePositions.needsUpdate = true;
    tubeNormals.needsUpdate = true;
  }

  function updateAero() {
    const P = aeroPositions.array;
    let o = 0;
    const te = new Float64Array(12);
    for (const list of aeroEdges)
      for (let s = 0; s + 1 < list.length; ++s) {
        const a = list[s], b = list[s + 1];
        pointOf(a[0][0], a[0][1], a[0][2], a[0][3], te, 0);
        pointOf(a[1][0], a[1][1], a[1][2], a[1][3], te, 3);
        pointOf(b[1][0], b[1][1], b[1][2], b[1][3], te, 6);
        pointOf(b[0][0], b[0][1], b[0][2], b[0][3], te, 9);
        for (const k of [0, 1, 2, 0, 2, 3]) { P[o++] = te[3 * k]; P[o++] = te[3 * k + 1]; P[o++] = te[3 * k + 2]; }
      }
    aeroPositions.needsUpdate = true;
  }

  // ---- records ----
  const slider = $('mbl-slider'), timeLabel = $('mbl-time');
  slider.max = String(NR - 1);
  function setRecord(r) {
    record = Math.max(0, Math.min(NR - 1, r | 0));
    pos.set(X.subarray(3 * NN * record, 3 * NN * (record + 1)));
    quat.set(Q.subarray(4 * NN * record, 4 * NN * (record + 1)));
    updateScene();
    slider.value = String(record);
    timeLabel.textContent = 't = ' + D.time[record].toPrecision(6) + ' (' + (record + 1) + '/' + NR + ')';
    if (selected >= 0) showInfo();
    drawCursor();
  }

  function render() { renderer.render(scene, camera); }

  function resize() {
    const w = Math.max(host.clientWidth, 10), h = Math.max(host.clientHeight, 10);
    renderer.setSize(w, h);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    sizePlot();
    render();
  }

  function resetCamera() {
    const c = box.getCenter(new THREE.Vector3());
    const r = 0.5 * L;
    const dist = r / Math.sin(THREE.MathUtils ? THREE.MathUtils.degToRad(camera.fov / 2) : camera.fov * Math.PI / 360) * 1.1;
    const dir = new THREE.Vector3(1, -1.6, 0.9).normalize();
    camera.position.copy(c).addScaledVector(dir, dist);
    controls.target.copy(c);
    camera.near = dist * 1e-3;
    camera.far = dist * 10;
    camera.updateProjectionMatrix();
    controls.update();
    render();
  }

  // ---- playing ----
  let playing = false, simTime = D.time[0], lastWall = 0;
  const play = $('mbl-play'), speed = $('mbl-speed'), loop = $('mbl-loop');
  function setPlaying(on) {
    playing = on;
    play.innerHTML = on ? '&#10074;&#10074;' : '&#9654;';
    if (on) {
      if (record >= NR - 1 && !modeOn()) setRecord(0);
      simTime = D.time[record];
      lastWall = performance.now();
      requestAnimationFrame(tick);
    }
  }
  function tick(now) {
    if (!playing) return;
    const dt = Math.max(0, (now - lastWall) / 1000);
    lastWall = now;
    if (modeOn()) {
      modePhase += dt * 2 * Math.PI / 2;  // one period every 2 s
      setMode();
    } else {
      simTime += dt * Number(speed.value);
      let r = record;
      while (r + 1 < NR && D.time[r + 1] <= simTime) ++r;
      if (r >= NR - 1 && simTime > D.time[NR - 1]) {
        if (loop.checked && NR > 1) { r = 0; simTime = D.time[0]; } else { setPlaying(false); }
      }
      if (r !== record) setRecord(r);
    }
    render();
    if (playing) requestAnimationFrame(tick);
  }
  play.addEventListener('click', () => setPlaying(!playing));
  slider.addEventListener('input', () => { setRecord(Number(slider.value)); simTime = D.time[record]; render(); });
  $('mbl-reset').addEventListener('click', resetCamera);
  document.addEventListener('keydown', e => { if (e.code === 'Space' && e.target === document.body) { e.preventDefault(); setPlaying(!playing); } });

  // ---- eigenmodes: x = X0 + s Re(v e^(i phase)), R = exp(s Re(theta e^(i phase))) R0 ----
  const modeList = [];
  D.analyses.forEach((a, k) => a.modes.forEach((m, j) => modeList.push({ a, m, k, j })));
  let modePhase = 0;
  const modeOnBox = $('mbl-mode-on'), modeSelect = $('mbl-mode'), amp = $('mbl-amp');
  function modeOn() { return modeList.length > 0 && modeOnBox.checked; }
  if (modeList.length) {
    $('mbl-modes').hidden = false;
    for (const e of modeList) {
      const f = Math.abs(e.m.im) / (2 * Math.PI), mag = Math.hypot(e.m.re, e.m.im);
      const damp = mag > 0 ? -100 * e.m.re / mag : 0;
      const o = document.createElement('option');
      o.textContent = 't=' + e.a.time.toPrecision(4) + ' #' + (e.j + 1) + ': ' + f.toPrecision(5) + ' Hz, ' + damp.toPrecision(3) + ' %';
      modeSelect.appendChild(o);
    }
    const refresh = () => { if (modeOn()) { setMode(); render(); } else { setRecord(record); render(); } };
    modeOnBox.addEventListener('change', refresh);
    modeSelect.addEventListener('change', refresh);
    amp.addEventListener('input', refresh);
  }
  function setMode() {
    const e = modeList[modeSelect.selectedIndex] || modeList[0];
    const sh = e.m.shape;
    let big = 0;
    for (let n = 0; n < NN; ++n)
      big = Math.max(big, Math.hypot(sh[12 * n], sh[12 * n + 1], sh[12 * n + 2]) + Math.hypot(sh[12 * n + 6], sh[12 * n + 7], sh[12 * n + 8]));
    const s = big > 0 ? 0.1 * L * Math.pow(10, Number(amp.value)) / big : 0;
    // Phase 0 is the largest displacement: the phase of the largest component is taken out.
    let kmax = 0, vmax = -1;
    for (let k = 0; k < 12 * NN; k += (k % 12 === 2 ? 10 : 1)) {
      const m = Math.hypot(sh[k], sh[k + 6]);
      if (m > vmax) { vmax = m; kmax = k; }
    }
    const psi = modePhase + Math.atan2(sh[kmax + 6], sh[kmax]);
    const c = Math.cos(psi), sn = Math.sin(psi);
    const rq = new THREE.Quaternion(), q0 = new THREE.Quaternion(), axis = new THREE.Vector3();
    for (let n = 0; n < NN; ++n) {
      const o = 12 * n;
      for (let k = 0; k < 3; ++k) pos[3 * n + k] = e.a.X0[3 * n + k] + s * (sh[o + k] * c - sh[o + 6 + k] * sn);
      axis.set(sh[o + 3] * c - sh[o + 9] * sn, sh[o + 4] * c - sh[o + 10] * sn, sh[o + 5] * c - sh[o + 11] * sn).multiplyScalar(s);
      const angle = axis.length();
      if (angle > 0) rq.setFromAxisAngle(axis.normalize(), angle); else rq.set(0, 0, 0, 1);
      q0.set(e.a.Q0[4 * n], e.a.Q0[4 * n + 1], e.a.Q0[4 * n + 2], e.a.Q0[4 * n + 3]);
      rq.multiply(q0);
      quat[4 * n] = rq.x; quat[4 * n + 1] = rq.y; quat[4 * n + 2] = rq.z; quat[4 * n + 3] = rq.w;
    }
    updateScene();
    timeLabel.textContent = 'mode ' + modeSelect.value;
  }

  // ---- picking a node: the one nearest the click on screen ----
  let downAt = null;
  renderer.domElement.addEventListener('pointerdown', e => { downAt = [e.clientX, e.clientY]; });
  renderer.domElement.addEventListener('pointerup', e => {
    if (!downAt || Math.hypot(e.clientX - downAt[0], e.clientY - downAt[1]) > 4) return;
    const rect = renderer.domElement.getBoundingClientRect();
    const mx = e.clientX - rect.left, my = e.clientY - rect.top;
    let best = -1, bestD = 14;
    for (let n = 0; n < NN; ++n) {
      v3.set(pos[3 * n], pos[3 * n + 1], pos[3 * n + 2]).project(camera);
      if (v3.z > 1) continue;
      const d = Math.hypot((v3.x + 1) / 2 * rect.width - mx, (1 - v3.y) / 2 * rect.height - my);
      if (d < bestD) { bestD = d; best = n; }
    }
    select(best);
  });
  function select(n) {
    selected = n;
    marker.visible = n >= 0;
    trajectory.visible = n >= 0;
    if (n < 0) { $('mbl-info').innerHTML = '<b>click a node</b>'; render(); return; }
    const line = new Float32Array(3 * NR);
    for (let r = 0; r < NR; ++r) for (let k = 0; k < 3; ++k) line[3 * r + k] = X[3 * NN * r + 3 * n + k];
    trajectoryGeometry.setAttribute('position', new THREE.BufferAttribute(line, 3));
    trajectoryGeometry.setDrawRange(0, NR);
    marker.position.set(pos[3 * n], pos[3 * n + 1], pos[3 * n + 2]);
    showInfo();
    choosePlot('n' + n + '.X');
    render();
  }
  function fmt(v) { return (v >= 0 ? ' ' : '') + v.toExponential(5); }
  function showInfo() {
    const n = selected, node = D.nodes[n], o = 3 * NN * record + 3 * n;
    const q = new THREE.Quaternion(quat[4 * n], quat[4 * n + 1], quat[4 * n + 2], quat[4 * n + 3]);
    const m = new THREE.Matrix4().makeRotationFromQuaternion(q).elements;  // column-major
    const lines = ['node ' + node.label + (node.dummy ? ' (dummy)' : ''), 't = ' + Number(D.time[record].toPrecision(10)), '',
      'position', fmt(pos[3 * n]), fmt(pos[3 * n + 1]), fmt(pos[3 * n + 2])];
    if (node.rigid) {
      lines.push('', 'orientation R (rows)');
      for (let r = 0; r < 3; ++r) lines.push([m[r], m[4 + r], m[8 + r]].map(v => v.toFixed(5).padStart(9)).join(' '));
    }
    if (!modeOn()) {
      lines.push('', 'velocity', fmt(XP[o]), fmt(XP[o + 1]), fmt(XP[o + 2]));
      if (node.rigid) lines.push('', 'angular velocity', fmt(W[o]), fmt(W[o + 1]), fmt(W[o + 2]));
    }
    $('mbl-info').textContent = lines.join('\n');
  }

  // ---- plot of a variable over time, with a cursor at the current time ----
  const plot = $('mbl-plot'), varSelect = $('mbl-var'), compSelect = $('mbl-comp');
  const plotVars = new Map();  // key -> {name, ncomp, comps, t: times, get(i, c)}
  const nodeQuantities = [['X', X, ['X', 'Y', 'Z'], 'position'], ['XP', XP, ['vX', 'vY', 'vZ'], 'velocity'],
    ['Omega', W, ['wX', 'wY', 'wZ'], 'angular velocity']];
  D.nodes.forEach((node, n) => {
    for (const [q, arr, comps, what] of nodeQuantities) {
      if (q === 'Omega' && !node.rigid) continue;
      plotVars.set('n' + n + '.' + q, { name: 'node ' + node.label + ' ' + what, ncomp: 3, comps, t: D.time,
        get: (i, c) => arr[3 * NN * i + 3 * n + c] });
    }
  });
  D.vars.forEach((v, k) => plotVars.set('v' + k, { name: v.name, ncomp: v.ncomp,
    comps: Array.from({ length: v.ncomp }, (_, c) => '[' + (c + 1) + ']'), t: v.t, get: (i, c) => v.v[v.ncomp * i + c] }));
  for (const [key, v] of plotVars) {
    const o = document.createElement('option');
    o.value = key; o.textContent = v.name;
    varSelect.appendChild(o);
  }
  if (D.varsSkipped) $('mbl-plot-note').textContent = D.varsSkipped + ' more variables left out to keep the page small';
  let curve = null;  // {canvas with the curves, t0, t1, x(t) to pixels}
  function choosePlot(key) {
    if (!plotVars.has(key)) return;
    varSelect.value = key;
    const v = plotVars.get(key);
    compSelect.innerHTML = '';
    const all = document.createElement('option');
    all.value = '-1'; all.textContent = 'all';
    compSelect.appendChild(all);
    v.comps.forEach((c, i) => { const o = document.createElement('option'); o.value = String(i); o.textContent = c; compSelect.appendChild(o); });
    drawPlot();
  }
  varSelect.addEventListener('change', () => choosePlot(varSelect.value));
  compSelect.addEventListener('change', drawPlot);
  function sizePlot() {
    plot.width = Math.max(plot.clientWidth, 10) * (window.devicePixelRatio || 1);
    plot.height = Math.max(plot.clientHeight, 10) * (window.devicePixelRatio || 1);
    drawPlot();
  }
  const palette = ['#c0392b', '#27ae60', '#2e6fd1', '#8e44ad', '#d68910', '#17a589', '#555', '#a04000', '#1a5276'];
  function drawPlot() {
    const v = plotVars.get(varSelect.value);
    const off = document.createElement('canvas');
    off.width = plot.width; off.height = plot.height;
    const g = off.getContext('2d');
    g.fillStyle = '#fff'; g.fillRect(0, 0, off.width, off.height);
    curve = { canvas: off, t0: 0, t1: 1, left: 70, right: off.width - 10 };
    if (!v || !v.t.length) { drawCursor(); return; }
    const comps = compSelect.value === '-1' || compSelect.value === '' ? v.comps.map((_, i) => i) : [Number(compSelect.value)];
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < v.t.length; ++i) for (const c of comps) { const y = v.get(i, c); if (isFinite(y)) { lo = Math.min(lo, y); hi = Math.max(hi, y); } }
    if (!isFinite(lo)) { lo = -1; hi = 1; }
    if (hi - lo < 1e-300) { lo -= 1; hi += 1; }
    const t0 = v.t[0], t1 = v.t[v.t.length - 1] > t0 ? v.t[v.t.length - 1] : t0 + 1;
    const top = 10, bottom = off.height - 20, left = curve.left, right = curve.right;
    const px = t => left + (t - t0) / (t1 - t0) * (right - left), py = y => bottom - (y - lo) / (hi - lo) * (bottom - top);
    g.strokeStyle = '#999'; g.strokeRect(left, top, right - left, bottom - top);
    g.fillStyle = '#333'; g.font = '11px sans-serif';
    g.fillText(hi.toPrecision(4), 4, top + 10); g.fillText(lo.toPrecision(4), 4, bottom);
    g.fillText(String(t0.toPrecision(4)), left, off.height - 5);
    g.fillText(String(t1.toPrecision(4)), right - 40, off.height - 5);
    comps.forEach((c, k) => {
      g.strokeStyle = palette[c % palette.length]; g.beginPath();
      let started = false;
      for (let i = 0; i < v.t.length; ++i) {
        const y = v.get(i, c);
        if (!isFinite(y)) { started = false; continue; }
        if (started) g.lineTo(px(v.t[i]), py(y)); else { g.moveTo(px(v.t[i]), py(y)); started = true; }
      }
      g.stroke();
      g.fillStyle = g.strokeStyle; g.fillText(v.name + ' ' + v.comps[c], left + 8 + 140 * k, top + 14);
    });
    Object.assign(curve, { t0, t1 });
    drawCursor();
  }
  function drawCursor() {
    if (!curve) return;
    const g = plot.getContext('2d');
    g.drawImage(curve.canvas, 0, 0);
    if (modeOn()) return;
    const x = curve.left + (D.time[record] - curve.t0) / (curve.t1 - curve.t0) * (curve.right - curve.left);
    g.strokeStyle = '#000'; g.beginPath(); g.moveTo(x, 8); g.lineTo(x, plot.height - 18); g.stroke();
  }

  // ---- test hook: plays every record through the slider, then reports what is drawn ----
  window.__mblTest = function () {
    setPlaying(false);
    if (modeList.length) modeOnBox.checked = false;
    const ev = new Event('input');
    let update = 0;
    for (let r = 0; r < NR; ++r) {
      slider.value = String(r);
      const t0 = performance.now();
      setRecord(Number(slider.value));
      update += performance.now() - t0;
    }
    const r0 = performance.now();
    const frames = 5;
    for (let k = 0; k < frames; ++k) render();
    renderer.getContext().finish();
    const renderMs = (performance.now() - r0) / frames;
    slider.dispatchEvent(ev);
    const drawnPositions = Array.from(nodePositions.array);
    let drawn = 0;
    for (let n = 0; n < NN; ++n)
      if (isFinite(drawnPositions[3 * n]) && isFinite(drawnPositions[3 * n + 1]) && isFinite(drawnPositions[3 * n + 2])) ++drawn;
    return {
      nodes: drawn, labels: D.nodes.map(n => n.label), records: NR, every: D.every, lastRecord: Number(slider.value),
      lastTime: D.time[record], positions: Array.from(pos), drawnPositions, msPerRecord: update / NR, msRender: renderMs,
      beams: D.beams.length, surfaces: D.surfaces.length, bodies: D.bodies.length, joints: D.joints.length,
      modes: modeList.length, webgl: !!renderer.getContext()
    };
  };

  // ---- start ----
  $('mbl-title').textContent = D.title;
  document.title = D.title + ' - mbdyn-like view';
  window.addEventListener('resize', resize);
  resize();
  setRecord(0);
  resetCamera();
  choosePlot(varSelect.options.length ? varSelect.options[0].value : '');
  if (location.hash.indexOf('test') >= 0) {
    const out = $('mbl-test-result');
    try {
      out.textContent = JSON.stringify(window.__mblTest());
    } catch (e) {
      out.textContent = JSON.stringify({ error: String(e && e.stack || e) });
    }
    render();
  }
  // #node=<label>: that node selected (its panel, trajectory and plot).
  const chosen = /node=([^&]+)/.exec(location.hash);
  if (chosen) { select(D.nodes.findIndex(n => n.label === decodeURIComponent(chosen[1]))); }
  if (location.hash.indexOf('mode') >= 0 && modeList.length) { modeOnBox.checked = true; modePhase = Math.PI / 2 * 0; setMode(); render(); }
})();
