-- tools/bench.lua: the requests of tools/bench, for wrk.
--
--   wrk -s tools/bench.lua URL -- MODE DATA TAG TILL START THREADS
--
-- MODE    noop | floor | lookup | cash | punch | history | sync | login
-- DATA    a Lua file tools/bench writes: the cards (id, qr) of each
--         program, the location and the tills (staff id, token, login)
-- TAG     unique to the run: the idempotency keys are TAG-thread-n, so
--         no write is ever a replay
-- TILL    which till (1-based) acts: its token, staff id, terminal id
-- START   where in the cards this run starts (a card's turn comes again
--         only after every other card's, far outside a punch cooldown)
-- THREADS wrk's -t: thread k of T takes cards k, k+T, k+2T, ...
--
-- Every request carries what a till sends (Authorization, Content-Type,
-- X-Terminal-Id); noop and floor send lookup's very request to the
-- do-nothing responder and to the one of lookup's reads alone. Any
-- answer but 200 counts as bad (a sync batch with a failed item answers
-- 207). done() prints one line for tools/bench:
--   BENCH req=N dur_us=D rps=R p50_us=P p99_us=Q bad=B
-- and the first bad answer on stderr.

local threads = {}
local nthread = 0

function setup(thread)
	thread:set("tid", nthread)
	nthread = nthread + 1
	table.insert(threads, thread)
end

local mode, data, tag, till, start, stride
local n = 0
bad = 0
firstbad = ""

local function card(list)
	local i = (start + n * stride + tid) % #list + 1
	return list[i]
end

local bodies = {}

function bodies.noop()
	return "POST", "/api/v1/bench/noop",
	    '{"qr_code_data":"' .. card(data.all).qr .. '"}'
end

function bodies.floor()
	return "POST", "/api/v1/bench/floor",
	    '{"qr_code_data":"' .. card(data.all).qr .. '"}'
end

function bodies.lookup()
	return "POST", "/api/v1/cards/lookup",
	    '{"qr_code_data":"' .. card(data.all).qr .. '"}'
end

local function purchase(c, key, extra)
	return '{"card_instance_id":"' .. c.id .. '","location_id":"' ..
	    data.location .. '","staff_user_id":"' .. till.id ..
	    '","purchase_amount":' .. string.format("%d.%02d",
	    1 + n % 48, (n * 37) % 100) .. ',"idempotency_key":"' .. key ..
	    '"' .. (extra or "") .. '}'
end

local function key()
	return tag .. "-" .. tid .. "-" .. n
end

function bodies.cash()
	return "POST", "/api/v1/transactions/record", purchase(card(data.cash), key())
end

function bodies.punch()
	return "POST", "/api/v1/transactions/record", purchase(card(data.punch), key())
end

function bodies.history()
	return "GET", "/api/v1/transactions/history?card_instance_id=" ..
	    card(data.cash).id .. "&page_size=20", nil
end

-- 100 offline purchases on cashback cards, captured in the last hour.
function bodies.sync()
	local items = {}
	local base = os.time() - 3600
	local k = key()
	for j = 1, 100 do
		local c = data.cash[(start + (n * 100 + j) * stride + tid) %
		    #data.cash + 1]
		items[j] = purchase(c, k .. "-" .. j, ',"client_timestamp":"' ..
		    os.date("!%Y-%m-%dT%H:%M:%SZ", base + j * 30) .. '"')
	end
	return "POST", "/api/v1/transactions/sync",
	    '{"transactions":[' .. table.concat(items, ",") .. ']}'
end

function bodies.login()
	return "POST", "/api/v1/auth/login", '{"email":"' .. till.email ..
	    '","password":"' .. till.password .. '"}'
end

function init(args)
	mode, tag = args[1], args[3]
	data = dofile(args[2])
	till = data.tills[tonumber(args[4])]
	start = tonumber(args[5])
	stride = tonumber(args[6])
	if bodies[mode] == nil or till == nil or start == nil or
	    stride == nil then
		error("usage: -- MODE DATA TAG TILL START THREADS")
	end
	-- Lookups: the cashback cards and twice as many punch cards, the
	-- first of them (the rest are there so that a punch run never comes
	-- back to a card within its cooldown).
	data.all = {}
	for _, c in ipairs(data.cash) do table.insert(data.all, c) end
	for i = 1, math.min(#data.punch, 2 * #data.cash) do
		table.insert(data.all, data.punch[i])
	end
end

function request()
	local method, path, body = bodies[mode]()
	local h = {
		["Content-Type"] = "application/json",
		["X-Terminal-Id"] = "till-" .. till.n,
	}
	if mode ~= "login" then
		h["Authorization"] = "Bearer " .. till.token
	end
	n = n + 1
	return wrk.format(method, path, h, body)
end

function response(status, headers, body)
	if status ~= 200 then
		bad = bad + 1
		if firstbad == "" then
			firstbad = status .. " " .. string.sub(body or "", 1, 300)
		end
	end
end

function done(summary, latency, requests)
	local nbad, first = 0, ""
	for _, t in ipairs(threads) do
		nbad = nbad + t:get("bad")
		if first == "" then first = t:get("firstbad") end
	end
	local e = summary.errors
	nbad = nbad + e.connect + e.read + e.write + e.timeout
	local dur = summary.duration
	io.write(string.format("BENCH req=%d dur_us=%d rps=%.1f p50_us=%d " ..
	    "p99_us=%d bad=%d\n", summary.requests, dur,
	    summary.requests * 1e6 / math.max(dur, 1),
	    latency:percentile(50), latency:percentile(99), nbad))
	if first ~= "" then
		io.stderr:write("first bad answer: " .. first .. "\n")
	end
end
