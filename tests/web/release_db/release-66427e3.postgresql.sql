--
-- PostgreSQL database dump
--


-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: gamebag_release_sockets(text, text[], text[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.gamebag_release_sockets(p_node text, p_kinds text[], p_keys text[]) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    UPDATE web_open_sockets AS s SET n = s.n - 1 FROM unnest(p_kinds, p_keys) AS w(kind, key)
    WHERE s.node = p_node AND s.kind = w.kind AND s.key = w.key;
    DELETE FROM web_open_sockets AS s USING unnest(p_kinds, p_keys) AS w(kind, key)
    WHERE s.node = p_node AND s.kind = w.kind AND s.key = w.key AND s.n <= 0;
END $$;


--
-- Name: gamebag_take_sockets(text, text[], text[], integer[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.gamebag_take_sockets(p_node text, p_kinds text[], p_keys text[], p_limits integer[]) RETURNS text[]
    LANGUAGE plpgsql
    AS $$
DECLARE
    full_kinds TEXT[];
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('gamebag socket ' || w.kind), hashtext(w.key))
    FROM unnest(p_kinds, p_keys) WITH ORDINALITY AS w(kind, key, i) ORDER BY w.i;
    SELECT coalesce(array_agg(w.kind), CAST(ARRAY[] AS TEXT[])) INTO full_kinds
    FROM unnest(p_kinds, p_keys, p_limits) AS w(kind, key, lim)
    WHERE (SELECT coalesce(sum(s.n), 0) FROM web_open_sockets AS s JOIN web_nodes AS a ON a.id = s.node
           WHERE s.kind = w.kind AND s.key = w.key
             AND a.alive_until >= EXTRACT(EPOCH FROM clock_timestamp())) >= w.lim;
    IF cardinality(full_kinds) = 0 THEN
        INSERT INTO web_open_sockets AS s (kind, key, node, n)
        SELECT w.kind, w.key, p_node, 1 FROM unnest(p_kinds, p_keys) AS w(kind, key)
        ON CONFLICT (kind, key, node) DO UPDATE SET n = s.n + 1;
    END IF;
    RETURN full_kinds;
END $$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: people_accounts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.people_accounts (
    id character varying(32) NOT NULL,
    name character varying(64) NOT NULL,
    name_key character varying(64) NOT NULL,
    created_at double precision NOT NULL,
    disabled boolean NOT NULL
);


--
-- Name: people_seat_owners; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.people_seat_owners (
    table_id character varying(32) NOT NULL,
    seat integer NOT NULL,
    account_id character varying(32) NOT NULL
);


--
-- Name: web_bus_key; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.web_bus_key (
    id integer NOT NULL,
    secret text NOT NULL
);


--
-- Name: web_events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.web_events (
    table_id character varying(32) NOT NULL,
    idx integer NOT NULL,
    data text NOT NULL
);


--
-- Name: web_nodes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.web_nodes (
    id character varying(64) NOT NULL,
    alive_until double precision NOT NULL
);


--
-- Name: web_open_sockets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.web_open_sockets (
    kind character varying(16) NOT NULL,
    key text NOT NULL,
    node character varying(64) NOT NULL,
    n integer NOT NULL
);


--
-- Name: web_pending; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.web_pending (
    table_id character varying(32) NOT NULL,
    seat integer NOT NULL,
    action text NOT NULL
);


--
-- Name: web_rate_hits; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.web_rate_hits (
    key character varying(200) NOT NULL,
    hits double precision[] NOT NULL,
    accepted boolean DEFAULT true NOT NULL
);


--
-- Name: web_seats; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.web_seats (
    table_id character varying(32) NOT NULL,
    seat integer NOT NULL,
    token character varying(64) NOT NULL,
    name character varying(64) NOT NULL,
    agent character varying(200),
    claimed boolean
);


--
-- Name: web_summaries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.web_summaries (
    table_id character varying(32) NOT NULL,
    step integer NOT NULL,
    winners text,
    updated_at double precision NOT NULL
);


--
-- Name: web_tables; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.web_tables (
    id character varying(32) NOT NULL,
    game character varying(64) NOT NULL,
    players integer NOT NULL,
    options text NOT NULL,
    seed character varying(64) NOT NULL,
    turn_seconds double precision,
    timeout_agent character varying(200) NOT NULL,
    created_at double precision NOT NULL,
    finished boolean NOT NULL,
    host_token character varying(64),
    last_active double precision,
    closed character varying(16),
    owner character varying(64),
    lease_until double precision,
    next_id character varying(32),
    clock_step integer,
    clock_deadline double precision,
    coach text
);


--
-- Data for Name: people_accounts; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: people_seat_owners; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: web_bus_key; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.web_bus_key VALUES (1, '1be6254c289e06c833fe315aa88ef87cbb511bf601974db5e5eee33ed7268cb7');


--
-- Data for Name: web_events; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.web_events VALUES ('2glcLoNjzbJw', 0, '{"chance": ["gold", "gold", "purple", "purple"]}');
INSERT INTO public.web_events VALUES ('2glcLoNjzbJw', 1, '{"moves": {"0": ["gold", "gold"]}}');
INSERT INTO public.web_events VALUES ('2glcLoNjzbJw', 2, '{"moves": {"0": "stop"}}');
INSERT INTO public.web_events VALUES ('2glcLoNjzbJw', 3, '{"chance": ["green", "green", "red", "purple"]}');
INSERT INTO public.web_events VALUES ('2glcLoNjzbJw', 4, '{"moves": {"1": ["green", "red", "purple"]}}');
INSERT INTO public.web_events VALUES ('2glcLoNjzbJw', 5, '{"moves": {"1": "stop"}}');
INSERT INTO public.web_events VALUES ('2glcLoNjzbJw', 6, '{"chance": ["gold", "red", "red", "gray"]}');
INSERT INTO public.web_events VALUES ('lm5uMDcC428k', 0, '{"moves": {"0": 0, "1": 3}}');
INSERT INTO public.web_events VALUES ('lm5uMDcC428k', 1, '{"chance": {"1": "SEE"}}');
INSERT INTO public.web_events VALUES ('lm5uMDcC428k', 2, '{"moves": {"1": 3}}');
INSERT INTO public.web_events VALUES ('lm5uMDcC428k', 3, '{"chance": {"1": "EEE"}}');
INSERT INTO public.web_events VALUES ('lm5uMDcC428k', 4, '{"moves": {"1": 3}}');
INSERT INTO public.web_events VALUES ('lm5uMDcC428k', 5, '{"chance": {"1": "ESE"}}');
INSERT INTO public.web_events VALUES ('S9s7-wmocqVu', 0, '{"chance": 1}');
INSERT INTO public.web_events VALUES ('S9s7-wmocqVu', 1, '{"chance": 2}');
INSERT INTO public.web_events VALUES ('S9s7-wmocqVu', 2, '{"chance": 2}');
INSERT INTO public.web_events VALUES ('S9s7-wmocqVu', 3, '{"chance": 5}');
INSERT INTO public.web_events VALUES ('S9s7-wmocqVu', 4, '{"chance": "JULITA"}');
INSERT INTO public.web_events VALUES ('S9s7-wmocqVu', 5, '{"chance": "STEVEN"}');
INSERT INTO public.web_events VALUES ('S9s7-wmocqVu', 6, '{"chance": "CHANTAL"}');
INSERT INTO public.web_events VALUES ('S9s7-wmocqVu', 7, '{"chance": "FLUPPE"}');
INSERT INTO public.web_events VALUES ('S9s7-wmocqVu', 8, '{"chance": "BERNARD"}');
INSERT INTO public.web_events VALUES ('S9s7-wmocqVu', 9, '{"chance": "KEUN"}');
INSERT INTO public.web_events VALUES ('S9s7-wmocqVu', 10, '{"moves": {"0": "choose:JULITA", "1": "choose:FLUPPE", "2": "choose:BERNARD"}}');
INSERT INTO public.web_events VALUES ('ZSECF0OZi_ry', 0, '{"chance": 3}');
INSERT INTO public.web_events VALUES ('ZSECF0OZi_ry', 1, '{"moves": {"0": "roll"}}');
INSERT INTO public.web_events VALUES ('ZSECF0OZi_ry', 2, '{"chance": 3}');
INSERT INTO public.web_events VALUES ('ZSECF0OZi_ry', 3, '{"moves": {"0": "roll"}}');
INSERT INTO public.web_events VALUES ('ZSECF0OZi_ry', 4, '{"chance": 2}');
INSERT INTO public.web_events VALUES ('ZSECF0OZi_ry', 5, '{"moves": {"0": "roll"}}');
INSERT INTO public.web_events VALUES ('ZSECF0OZi_ry', 6, '{"chance": 5}');
INSERT INTO public.web_events VALUES ('ZSECF0OZi_ry', 7, '{"moves": {"0": "roll"}}');
INSERT INTO public.web_events VALUES ('ZSECF0OZi_ry', 8, '{"chance": 3}');
INSERT INTO public.web_events VALUES ('vSX9h9ZnLFR1', 0, '{"moves": {"0": 0, "1": 3, "2": 1}}');
INSERT INTO public.web_events VALUES ('vSX9h9ZnLFR1', 1, '{"chance": {"1": "ESS", "2": "E"}}');
INSERT INTO public.web_events VALUES ('A9cSN3CZ6ACf', 0, '{"chance": 3}');
INSERT INTO public.web_events VALUES ('A9cSN3CZ6ACf', 1, '{"moves": {"0": "roll"}}');
INSERT INTO public.web_events VALUES ('A9cSN3CZ6ACf', 2, '{"chance": 1}');
INSERT INTO public.web_events VALUES ('A9cSN3CZ6ACf', 3, '{"chance": 5}');
INSERT INTO public.web_events VALUES ('A9cSN3CZ6ACf', 4, '{"moves": {"1": "roll"}}');
INSERT INTO public.web_events VALUES ('A9cSN3CZ6ACf', 5, '{"chance": 5}');
INSERT INTO public.web_events VALUES ('A9cSN3CZ6ACf', 6, '{"moves": {"1": "roll"}}');
INSERT INTO public.web_events VALUES ('A9cSN3CZ6ACf', 7, '{"chance": 4}');
INSERT INTO public.web_events VALUES ('U20EeL4kvP01', 0, '{"chance": 1}');
INSERT INTO public.web_events VALUES ('U20EeL4kvP01', 1, '{"chance": 2}');
INSERT INTO public.web_events VALUES ('U20EeL4kvP01', 2, '{"moves": {"1": "roll"}}');
INSERT INTO public.web_events VALUES ('U20EeL4kvP01', 3, '{"chance": 3}');
INSERT INTO public.web_events VALUES ('U20EeL4kvP01', 4, '{"moves": {"1": "roll"}}');
INSERT INTO public.web_events VALUES ('U20EeL4kvP01', 5, '{"chance": 6}');
INSERT INTO public.web_events VALUES ('U20EeL4kvP01', 6, '{"moves": {"1": "roll"}}');
INSERT INTO public.web_events VALUES ('U20EeL4kvP01', 7, '{"chance": 5}');
INSERT INTO public.web_events VALUES ('U20EeL4kvP01', 8, '{"moves": {"1": "roll"}}');
INSERT INTO public.web_events VALUES ('U20EeL4kvP01', 9, '{"chance": 5}');
INSERT INTO public.web_events VALUES ('U20EeL4kvP01', 10, '{"moves": {"1": "roll"}}');
INSERT INTO public.web_events VALUES ('U20EeL4kvP01', 11, '{"chance": 2}');
INSERT INTO public.web_events VALUES ('U20EeL4kvP01', 12, '{"moves": {"1": "roll"}}');
INSERT INTO public.web_events VALUES ('U20EeL4kvP01', 13, '{"chance": 6}');
INSERT INTO public.web_events VALUES ('U20EeL4kvP01', 14, '{"moves": {"1": "roll"}}');
INSERT INTO public.web_events VALUES ('U20EeL4kvP01', 15, '{"chance": 2}');
INSERT INTO public.web_events VALUES ('xk3P4Riqeto9', 0, '{"chance": 4}');
INSERT INTO public.web_events VALUES ('j5fqPDJcJLHK', 0, '{"chance": ["gold", "red", "red", "purple"]}');
INSERT INTO public.web_events VALUES ('2LDLpFRlZ1Pz', 0, '{"chance": ["green", "red", "red", "red"]}');
INSERT INTO public.web_events VALUES ('2LDLpFRlZ1Pz', 1, '{"moves": {"0": ["green", "red"]}}');
INSERT INTO public.web_events VALUES ('2LDLpFRlZ1Pz', 2, '{"moves": {"0": "stop"}}');
INSERT INTO public.web_events VALUES ('2LDLpFRlZ1Pz', 3, '{"chance": ["green", "green", "gold", "purple"]}');
INSERT INTO public.web_events VALUES ('2LDLpFRlZ1Pz', 4, '{"moves": {"1": ["green", "gold", "purple"]}}');
INSERT INTO public.web_events VALUES ('2LDLpFRlZ1Pz', 5, '{"moves": {"1": "stop"}}');
INSERT INTO public.web_events VALUES ('2LDLpFRlZ1Pz', 6, '{"chance": ["green", "green", "gold", "red"]}');


--
-- Data for Name: web_nodes; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: web_open_sockets; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: web_pending; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.web_pending VALUES ('S9s7-wmocqVu', 0, '"pass"');
INSERT INTO public.web_pending VALUES ('S9s7-wmocqVu', 1, '"pass"');
INSERT INTO public.web_pending VALUES ('vSX9h9ZnLFR1', 1, '2');
INSERT INTO public.web_pending VALUES ('XERNI3ikzbTY', 0, '0');
INSERT INTO public.web_pending VALUES ('XERNI3ikzbTY', 1, '3');


--
-- Data for Name: web_rate_hits; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.web_rate_hits VALUES ('LIMITER/new tables/127.0.0.1/20/1/minute', '{1796453584.0730872,1796453583.8918343,1796453583.859017,1796453583.8218284,1796453583.6242096,1796453583.4952404,1796453583.323947,1796453583.175905,1796453582.4673984,1796453582.3312242,1796453581.6535566}', true);
INSERT INTO public.web_rate_hits VALUES ('LIMITER/new tables/127.0.0.1/200/1/hour', '{1796453584.0736752,1796453583.8924627,1796453583.8596423,1796453583.8224509,1796453583.6248798,1796453583.4959269,1796453583.324504,1796453583.1764636,1796453582.4680433,1796453582.331836,1796453581.654852}', true);
INSERT INTO public.web_rate_hits VALUES ('LIMITER/new connections/127.0.0.1/120/1/minute', '{1796453584.11318,1796453583.9897382,1796453583.9835484,1796453583.9765222,1796453583.6902568,1796453583.6851285,1796453583.5702262,1796453583.5590265,1796453583.4270694,1796453583.4208276,1796453583.4137125,1796453583.2464654,1796453583.2402203,1796453582.5880275,1796453582.5772343,1796453582.5690064,1796453582.3986661,1796453582.392959,1796453582.2604463,1796453582.2540946}', true);


--
-- Data for Name: web_seats; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.web_seats VALUES ('2glcLoNjzbJw', 0, 'Ru-Ejo2MolcquT82qIHl4u0gz5ohZ29S', 'P0', NULL, true);
INSERT INTO public.web_seats VALUES ('2glcLoNjzbJw', 1, '8jdcnrboxbkGNSgSxrpm_bNxUb1qs3rf', 'P1', NULL, true);
INSERT INTO public.web_seats VALUES ('lm5uMDcC428k', 0, 'LoJUcRgv08XqZGf47-p-YsfwBz6UUsIr', 'P0', NULL, true);
INSERT INTO public.web_seats VALUES ('lm5uMDcC428k', 1, 'jY80_QQ_bmVzaozzyZ0Q95Z4sATXJ6CZ', 'P1', NULL, true);
INSERT INTO public.web_seats VALUES ('S9s7-wmocqVu', 0, 'DZ6YbIOXJyLQ4eGikFqfvkAu32-AqpSf', 'P0', NULL, true);
INSERT INTO public.web_seats VALUES ('S9s7-wmocqVu', 1, 'MWpd6rlwZd-HkGIqE8F61zGtqEEOI4jR', 'P1', NULL, true);
INSERT INTO public.web_seats VALUES ('S9s7-wmocqVu', 2, 'ae3HVv6c8jh74Vj-TEgt6QpZdUHx3aEQ', 'P2', NULL, true);
INSERT INTO public.web_seats VALUES ('ZSECF0OZi_ry', 0, 'iOoSevp_bVflRXaE-5Bcqw7PCQmy1JWS', 'P0', NULL, true);
INSERT INTO public.web_seats VALUES ('ZSECF0OZi_ry', 1, 'm_N3tNqk3SCTfBGcPVFINGowal4NSWVM', 'P1', NULL, true);
INSERT INTO public.web_seats VALUES ('vSX9h9ZnLFR1', 0, 'GhpHzsHPgsQuHWen1iAJv2qu-1k-pYEb', 'P0', NULL, true);
INSERT INTO public.web_seats VALUES ('vSX9h9ZnLFR1', 1, 'LR1s9r_UjNeW6J75dLH7y_O2eVdklhOe', 'P1', NULL, true);
INSERT INTO public.web_seats VALUES ('vSX9h9ZnLFR1', 2, 'Fo39drnS4QdiFOl8PCXnDZJBE-8WSXzz', 'P2', NULL, true);
INSERT INTO public.web_seats VALUES ('A9cSN3CZ6ACf', 0, '9d_tVJeAowjgYuUHttmTTdLbIaPB_gdC', 'P0', NULL, true);
INSERT INTO public.web_seats VALUES ('A9cSN3CZ6ACf', 1, 'XS9S5Hi2Hc5oEanr18ssYLVLn9glyCea', 'P1', NULL, true);
INSERT INTO public.web_seats VALUES ('U20EeL4kvP01', 0, '5MinGXVGfba2YEwBffxE5qShBOLSaq21', 'P0', NULL, true);
INSERT INTO public.web_seats VALUES ('U20EeL4kvP01', 1, 'uGt-kMA7kDH_QKXLX5w0-gwYPP6Bu70j', 'P1', NULL, true);
INSERT INTO public.web_seats VALUES ('xk3P4Riqeto9', 0, 'umZBuA3nyfGkD6ZxKt_3jopYKddLM1Im', 'P0', NULL, true);
INSERT INTO public.web_seats VALUES ('xk3P4Riqeto9', 1, '2_UnPAqk6K9xQZY8Dw81zFmJePFanVIy', 'P1', NULL, true);
INSERT INTO public.web_seats VALUES ('j5fqPDJcJLHK', 0, 'FczTCv7lg6Y-ASZEuBYtmdFk10BOdMHq', 'P0', NULL, false);
INSERT INTO public.web_seats VALUES ('j5fqPDJcJLHK', 1, 'cElbW8Jw2gDMnBk1vM4Wmg8Hj3dQm008', 'P1', NULL, false);
INSERT INTO public.web_seats VALUES ('XERNI3ikzbTY', 0, 'w1btEoIltxEXZMRCy6CRqCCZptveydO9', 'P0', NULL, true);
INSERT INTO public.web_seats VALUES ('XERNI3ikzbTY', 1, 'kUoF3OCJQVvQs-Z_K0CaJJIim2oO4CN5', 'P1', NULL, true);
INSERT INTO public.web_seats VALUES ('XERNI3ikzbTY', 2, 'LgqJwrTc-SsELBteWGA3wd_SWMHcChp1', 'P2', NULL, true);
INSERT INTO public.web_seats VALUES ('2LDLpFRlZ1Pz', 1, 'qWDB2iECK11p_VeFJf0rjMODqbLT1kCP', 'P1', 'random', true);
INSERT INTO public.web_seats VALUES ('2LDLpFRlZ1Pz', 0, 'OI_0erM9TQ4xVRWXyYbE42vBjz2-4tdB', 'P0', NULL, true);


--
-- Data for Name: web_summaries; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.web_summaries VALUES ('2glcLoNjzbJw', 7, NULL, 1796453582.3077815);
INSERT INTO public.web_summaries VALUES ('lm5uMDcC428k', 6, NULL, 1796453582.4437582);
INSERT INTO public.web_summaries VALUES ('S9s7-wmocqVu', 11, NULL, 1796453582.6158059);
INSERT INTO public.web_summaries VALUES ('ZSECF0OZi_ry', 9, NULL, 1796453583.2934997);
INSERT INTO public.web_summaries VALUES ('vSX9h9ZnLFR1', 2, NULL, 1796453583.4509993);
INSERT INTO public.web_summaries VALUES ('A9cSN3CZ6ACf', 8, NULL, 1796453583.6009016);
INSERT INTO public.web_summaries VALUES ('U20EeL4kvP01', 16, '[1]', 1796453583.7847567);
INSERT INTO public.web_summaries VALUES ('xk3P4Riqeto9', 1, NULL, 1796453583.8302991);
INSERT INTO public.web_summaries VALUES ('j5fqPDJcJLHK', 1, NULL, 1796453583.8663542);
INSERT INTO public.web_summaries VALUES ('2LDLpFRlZ1Pz', 7, NULL, 1796453584.1466537);


--
-- Data for Name: web_tables; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.web_tables VALUES ('A9cSN3CZ6ACf', 'pig', 2, '{"goal": 30, "die_sides": 6}', '200', 3600, 'heuristic', 1796453583.4968758, false, 'Mgu4qdimdWXUIC5RhX3Zuc2cblO6ol2_', 1796453583.6009016, NULL, NULL, NULL, NULL, 8, 1796457183.602359, NULL);
INSERT INTO public.web_tables VALUES ('S9s7-wmocqVu', 'eigen-kweek', 3, '{"coins_worth_1": 10, "coins_worth_2": 10, "coins_worth_3": 10, "coins_worth_4": 0, "coins_worth_5": 5, "capacity_2": 3, "capacity_4": 3, "capacity_6": 6, "capacity_8": 9, "plough_cost_2": 1, "plough_cost_4": 2, "plough_cost_6": 3, "plough_cost_8": 4, "max_rounds": 3, "coin_visibility": "secret", "stefaan_order": "first", "fluppe_counts_sacks": true}', '102', NULL, 'heuristic', 1796453582.47092, false, 'q03QWrkw-uG7uLFK-RleOy955DHjGsEc', 1796453582.6526039, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO public.web_tables VALUES ('2glcLoNjzbJw', 'catch-a-dragon', 2, '{"faces": ["green", "gold", "blue", "red", "purple", "gray"], "dice": 4, "rounds": 4, "cyclic": true, "duplicate_bust": "any", "max_tiebreak_rounds": 10}', '100', NULL, 'heuristic', 1796453581.6724524, false, 'qJcmy3O0ZGXkpcW8ABoaptd9lv-ZAoIn', 1796453582.3077815, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO public.web_tables VALUES ('ZSECF0OZi_ry', 'pig', 2, '{"goal": 30, "die_sides": 6}', '103', NULL, 'heuristic', 1796453583.1772945, false, 'a5769dGj_pDROb7h7HNTw5M5HrmppEYO', 1796453583.2934997, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO public.web_tables VALUES ('lm5uMDcC428k', 'eel-harvest', 2, '{"rotate_start": false, "outbreak_scores_reserve": false, "lone_player_grabs": null, "draw": "bag", "eels": 51, "snakes": 17, "target": 20, "max_grab": null, "outbreak_snakes": null}', '101', NULL, 'heuristic', 1796453582.3329666, false, 'Z9n4CpUD0SjdonIy0HKLSGsYdGFfJuIl', 1796453582.4437582, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO public.web_tables VALUES ('2LDLpFRlZ1Pz', 'catch-a-dragon', 2, '{"faces": ["green", "gold", "blue", "red", "purple", "gray"], "dice": 4, "rounds": 4, "cyclic": true, "duplicate_bust": "any", "max_tiebreak_rounds": 10}', '500', NULL, 'heuristic', 1796453584.0751257, false, 'atEB7tyPrxTAC0nRzNMoVByi8XfNL7J4', 1796453584.1466537, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO public.web_tables VALUES ('vSX9h9ZnLFR1', 'wriggle-roulette', 3, '{"rotate_start": false, "eels": 51, "snakes": 17, "target": 20, "max_grab": null, "outbreak_snakes": null}', '104', NULL, 'heuristic', 1796453583.325378, false, 'E2MK3QEcrAkO38b4JnGr4_uXpjC9GG7Z', 1796453583.464039, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO public.web_tables VALUES ('U20EeL4kvP01', 'pig', 2, '{"goal": 30, "die_sides": 6}', '300', NULL, 'heuristic', 1796453583.62578, true, 'DuYKyNMc30RUFRFsQdgylcAkJm46mjfw', 1796453583.7847567, NULL, NULL, NULL, 'xk3P4Riqeto9', NULL, NULL, NULL);
INSERT INTO public.web_tables VALUES ('XERNI3ikzbTY', 'wriggle-roulette', 3, '{"rotate_start": false, "eels": 51, "snakes": 17, "target": 20, "max_grab": null, "outbreak_snakes": null}', '400', NULL, 'heuristic', 1796453583.8933632, false, 'jQEBvWIufwepijes1kB-TpHWVgHU5LrK', 1796453584.006006, 'host', NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO public.web_tables VALUES ('xk3P4Riqeto9', 'pig', 2, '{"goal": 30, "die_sides": 6}', '1845092120055086094', NULL, 'heuristic', 1796453583.8231957, false, 'RTYRDFo1uwvY8CV1HxKlZZzq3PA4Yuk-', 1796453583.8302991, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO public.web_tables VALUES ('j5fqPDJcJLHK', 'catch-a-dragon', 2, '{"faces": ["green", "gold", "blue", "red", "purple", "gray"], "dice": 4, "rounds": 4, "cyclic": true, "duplicate_bust": "any", "max_tiebreak_rounds": 10}', '350', NULL, 'heuristic', 1796453583.860553, false, '0aGLpJ0gxFXSCTuuAZteJmALAdk602_0', 1796453583.8663542, NULL, NULL, NULL, NULL, NULL, NULL, NULL);


--
-- Name: people_accounts people_accounts_name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.people_accounts
    ADD CONSTRAINT people_accounts_name_key UNIQUE (name);


--
-- Name: people_accounts people_accounts_name_key_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.people_accounts
    ADD CONSTRAINT people_accounts_name_key_key UNIQUE (name_key);


--
-- Name: people_accounts people_accounts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.people_accounts
    ADD CONSTRAINT people_accounts_pkey PRIMARY KEY (id);


--
-- Name: people_seat_owners people_seat_owners_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.people_seat_owners
    ADD CONSTRAINT people_seat_owners_pkey PRIMARY KEY (table_id, seat);


--
-- Name: web_bus_key web_bus_key_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_bus_key
    ADD CONSTRAINT web_bus_key_pkey PRIMARY KEY (id);


--
-- Name: web_events web_events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_events
    ADD CONSTRAINT web_events_pkey PRIMARY KEY (table_id, idx);


--
-- Name: web_nodes web_nodes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_nodes
    ADD CONSTRAINT web_nodes_pkey PRIMARY KEY (id);


--
-- Name: web_open_sockets web_open_sockets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_open_sockets
    ADD CONSTRAINT web_open_sockets_pkey PRIMARY KEY (kind, key, node);


--
-- Name: web_pending web_pending_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_pending
    ADD CONSTRAINT web_pending_pkey PRIMARY KEY (table_id, seat);


--
-- Name: web_rate_hits web_rate_hits_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_rate_hits
    ADD CONSTRAINT web_rate_hits_pkey PRIMARY KEY (key);


--
-- Name: web_seats web_seats_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_seats
    ADD CONSTRAINT web_seats_pkey PRIMARY KEY (table_id, seat);


--
-- Name: web_seats web_seats_token_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_seats
    ADD CONSTRAINT web_seats_token_key UNIQUE (token);


--
-- Name: web_summaries web_summaries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_summaries
    ADD CONSTRAINT web_summaries_pkey PRIMARY KEY (table_id);


--
-- Name: web_tables web_tables_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_tables
    ADD CONSTRAINT web_tables_pkey PRIMARY KEY (id);


--
-- Name: ix_people_seat_owners_account_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_people_seat_owners_account_id ON public.people_seat_owners USING btree (account_id);


--
-- Name: people_seat_owners people_seat_owners_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.people_seat_owners
    ADD CONSTRAINT people_seat_owners_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.people_accounts(id);


--
-- Name: people_seat_owners people_seat_owners_table_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.people_seat_owners
    ADD CONSTRAINT people_seat_owners_table_id_fkey FOREIGN KEY (table_id) REFERENCES public.web_tables(id);


--
-- Name: web_events web_events_table_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_events
    ADD CONSTRAINT web_events_table_id_fkey FOREIGN KEY (table_id) REFERENCES public.web_tables(id);


--
-- Name: web_pending web_pending_table_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_pending
    ADD CONSTRAINT web_pending_table_id_fkey FOREIGN KEY (table_id) REFERENCES public.web_tables(id);


--
-- Name: web_seats web_seats_table_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_seats
    ADD CONSTRAINT web_seats_table_id_fkey FOREIGN KEY (table_id) REFERENCES public.web_tables(id);


--
-- PostgreSQL database dump complete
--


