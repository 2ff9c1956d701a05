-- A linear spring-damper between two structural nodes (zero rest length, isotropic):
-- the force on node 2 is -(k d + c d'), d = x2 - x1, and its opposite acts on node 1.
k = 100.0   -- N/m
c = 2.0     -- N s/m

function spring_damper(t, nodes)
  local a, b = nodes[1], nodes[2]
  local F = {}
  for i = 1, 3 do F[i] = k * (b.X[i] - a.X[i]) + c * (b.V[i] - a.V[i]) end
  return {{F = F}, {F = {-F[1], -F[2], -F[3]}}}
end

-- K = -dL/dq and C = -dL/dq' with L = {F1, M1, F2, M2}: 12 x 12, position blocks only.
local function blocks(s)
  local m = {}
  for r = 1, 12 do
    m[r] = {}
    for col = 1, 12 do m[r][col] = 0 end
  end
  for i = 1, 3 do
    m[i][i], m[i][6 + i] = s, -s
    m[6 + i][i], m[6 + i][6 + i] = -s, s
  end
  return m
end

-- Constant: built once (the element only reads the tables it is given back).
local jacobian = {K = blocks(k), C = blocks(c)}
function spring_damper_jacobian(t, nodes)
  return jacobian
end
