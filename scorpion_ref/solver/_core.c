/* The compiled core of the solver's search: the loop of scorpion_ref.solver.search, in C.
 *
 * It runs exactly the search of search.py's Python loop, on the same
 * representation (a card is 13 * suit + rank - 1, plus 64 when face down; a
 * column lists its cards from bottom to top), with the same moves in the same
 * order, the same reductions (every position kept is settled by the safe
 * moves of reductions.safe_move, found in the same order) and the same node
 * counting, so that it returns the same outcome, proof, node count and line.
 * tests/test_solver_core.py holds the two equal. A Search object keeps its
 * table between calls of run(): a search stopped by its budget of positions
 * goes on from where it stopped (it stops before expanding a position, which
 * the next call expands first), exactly as a new search with the bigger
 * budget would. What it does not copy is the transposition table:
 *
 * - A key is exact: two keys are equal exactly when the Python keys are
 *   (reductions.canonical_key: the columns the stock cannot reach count as a
 *   multiset; with reduced false, search._plain_key: every column in order).
 *   It is 52 bytes, one per card: what lies directly under the card (another
 *   card; the bottom of column i for a column the stock reaches, or of any
 *   other column, which is what makes those a multiset; place k of the
 *   stock; or nothing: collected or not in play), plus 128 when the card is
 *   face down. The columns can be read back from it (each card has at most
 *   one card on it), so it says everything of the position. Every State
 *   carries its key and changes it with each move, a byte or a few a move
 *   (the card that moves, the card that turns up, a collected run, the deal).
 * - Keys live in an arena of chunks of 52-byte entries; the table is open
 *   addressing (linear probing, at most 70% full) of 8-byte slots, each
 *   holding 32 bits of the key's 64-bit hash and the entry's number. A slot
 *   whose hash bits match is compared byte by byte: a hash alone never merges
 *   two positions.
 * - Everything allocated (slots, arena chunks, the path's frames, the stack
 *   of children) is counted; an allocation that would pass the memory limit,
 *   or that fails, ends the search with unknown, proof "memory".
 *
 * Bytes per position: the key (52) and 8 / load of slots (the load is 35% to
 * 70%: 11 to 23 bytes), so 63 to 75 bytes, and while the table doubles the old
 * and the new slots both.
 *
 * The loop runs without the GIL; every check_every positions it takes the GIL
 * back, calls the progress callable and PyErr_CheckSignals(); an exception
 * there frees the table and propagates (Ctrl-C gives KeyboardInterrupt); the
 * search cannot go on after that. Numbers from Python (budgets, the memory
 * limit) that are negative or past 2**64 - 1 are refused, never wrapped.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define DOWN 64
#define NCOL 7
#define MAXC 52
#define NO 255 /* a DEAL move is (NO, NO, NO) */

#define F_COLLECT 1
#define F_ANY_TIME 2
#define F_EMPTY_ANY 4
#define F_WHOLE_ALLOWED 8
#define F_ONE_PER_COLUMN 16
#define F_RUNS_IGNORED 32

#define F_PLAIN 64 /* the search's own flag: reduced false, the columns in order in the key */

/* A key's bytes, one per card: what lies under it (a card 0..51, or one of these), + K_DOWN face down */
#define K_BOTTOM 52  /* K_BOTTOM + i: the bottom of column i, which the stock reaches (or any, with F_PLAIN) */
#define K_FLOOR 59   /* the bottom of a column the stock does not reach */
#define K_STOCK 60   /* K_STOCK + k: place k of the stock */
#define K_GONE 67    /* collected, or not in play */
#define K_DOWN 128
#define KEYLEN 52
#define KEY_MAX KEYLEN

#define CHUNK_BITS 14 /* 852 KB a chunk: a small memory limit still holds some positions */
#define CHUNK_ENTRIES ((size_t)1 << CHUNK_BITS)
#define CHUNK_SIZE (CHUNK_ENTRIES * KEYLEN)
#define MAX_ENTRIES 0xfffffffeu /* an entry's number + 1 fits in a slot's 32 low bits */
#define MAX_MOVES 512

/* A position. Besides the columns, it keeps (up to date at every change) where each card is:
 * each column's face-up and face-down cards as bit sets, its count of face-down cards, and the
 * column and index of every face-up card. */
typedef struct {
    uint64_t cm[NCOL]; /* each column's face-up cards */
    uint64_t dm[NCOL]; /* each column's face-down cards (as card numbers) */
    uint8_t wcol[52], widx[52]; /* the column and index of each face-up card */
    uint8_t nd[NCOL];  /* each column's face-down cards: how many */
    uint8_t key[KEYLEN]; /* the table's key (see the top of the file) */
    uint8_t len[NCOL];
    uint8_t nstock;
    uint8_t suits;
    uint8_t stock[NCOL];
    uint8_t c[NCOL][MAXC];
} State;

typedef struct {
    uint8_t s, i, d;
} Move;

typedef struct {
    State s;      /* the position whose children these are */
    size_t base;  /* its children: moves[base .. base + count) */
    uint32_t count;
    uint32_t cursor;
    Move in;      /* the move that made s from the frame below */
} Frame;

/* RUN_GO: go on; RUN_CHECK: go on after the progress call and the signal check */
enum { RUN_GO, RUN_WON, RUN_LOST, RUN_NODES, RUN_MEMORY, RUN_CHECK };

typedef struct {
    int flags, reduced, latent;
    uint64_t max_nodes, nodes, next_check, check_every;
    uint64_t limit, used, peak;
    /* the table */
    uint64_t *slots;
    size_t mask, count;
    uint8_t **chunks;  /* the arena: chunks of CHUNK_ENTRIES keys */
    size_t nchunks, chunks_cap;
    /* the path */
    Frame *frames;
    size_t frames_cap;
    long depth;
    Move *moves;
    size_t moves_cap, moves_top;
    /* the node being expanded across a check */
    int pending;
    Move cur;
    Move buf[MAX_MOVES];
    int nbuf, avail;
    /* the children's keys, made before any is looked up (so that the lookups overlap) */
    uint8_t keys[MAX_MOVES + 1][KEYLEN];
    uint64_t key_hash[MAX_MOVES + 1];
    /* the answer */
    Move *line;
    size_t line_len;
} Ctx;

/* ---- memory ---- */

static void *grab(Ctx *c, size_t bytes) {
    if (c->used + bytes > c->limit) return NULL;
    void *p = malloc(bytes);
    if (p == NULL) return NULL;
    c->used += bytes;
    if (c->used > c->peak) c->peak = c->used;
    return p;
}

static void *regrab(Ctx *c, void *old, size_t old_bytes, size_t new_bytes) {
    /* realloc may need both blocks at once: count both */
    if (c->used + new_bytes > c->limit) return NULL;
    void *p = realloc(old, new_bytes);
    if (p == NULL) return NULL;
    c->used += new_bytes - old_bytes;
    if (c->used + old_bytes > c->peak) c->peak = c->used + old_bytes;
    return p;
}

static void release(Ctx *c) {
    free(c->slots);
    for (size_t i = 0; i < c->nchunks; i++) free(c->chunks[i]);
    free(c->chunks);
    free(c->frames);
    free(c->moves);
    free(c->line);
    c->slots = NULL;
    c->chunks = NULL;
    c->nchunks = 0;
    c->frames = NULL;
    c->moves = NULL;
    c->line = NULL;
}

/* ---- the rules, as fast.py has them ---- */

#define BIT(card) ((uint64_t)1 << (card))
/* The Kings, shifted one down: BIT(top) >> 1 & ~ACES is the bit of the card that goes on top, if any. */
#define ACES (BIT(12) | BIT(25) | BIT(38) | BIT(51))

static inline int down_count(const State *st, int col) { return st->nd[col]; }

static inline uint64_t face_up(const State *st) {
    uint64_t up = 0;
    for (int col = 0; col < NCOL; col++) up |= st->cm[col];
    return up;
}

/* The key byte of the bottom of column col. */
static inline uint8_t bottom_of(const State *st, int col, int flags) {
    return (uint8_t)((flags & F_PLAIN) || col < st->nstock ? K_BOTTOM + col : K_FLOOR);
}

/* Turn the face-down card at the top of a column face up. */
static inline void flip_top(State *st, int col) {
    int j = st->len[col] - 1;
    uint8_t card = (uint8_t)(st->c[col][j] - DOWN);
    st->c[col][j] = card;
    st->key[card] &= (uint8_t)~K_DOWN;
    st->cm[col] |= BIT(card);
    st->dm[col] &= ~BIT(card);
    st->nd[col]--;
    st->wcol[card] = (uint8_t)col;
    st->widx[card] = (uint8_t)j;
}

/* RUNS[suit] in column: the suit's complete run, King to Ace, face up somewhere in the column. */
static int has_run(const State *st, int col, int suit) {
    int len = st->len[col];
    uint8_t king = (uint8_t)(13 * suit + 12);
    for (int j = 0; j + 13 <= len; j++) {
        if (st->c[col][j] == king) {
            for (int k = 1; k < 13; k++)
                if (st->c[col][j + k] != king - k) return 0;
            return 1;
        }
    }
    return 0;
}

/* fast.moves_of: the moves into non-empty columns, then into each of `empties`. */
static int moves_of(const State *st, int flags, const int *empties, int nempty, Move *out, int *avail) {
    int n = 0;
    uint64_t up = face_up(st);
    for (int dest = 0; dest < NCOL; dest++) {
        int len = st->len[dest];
        if (!len) continue;
        int target = st->c[dest][len - 1];
        if (target % 13) {
            int card = target - 1;
            if (up >> card & 1 && st->wcol[card] != dest) {
                out[n].s = st->wcol[card];
                out[n].i = st->widx[card];
                out[n].d = (uint8_t)dest;
                n++;
            }
        }
    }
    int available = n;
    if (nempty) {
        int whole = flags & F_WHOLE_ALLOWED, ignored = flags & F_RUNS_IGNORED;
        if (flags & F_EMPTY_ANY) {
            for (int source = 0; source < NCOL; source++) {
                int len = st->len[source];
                for (int index = down_count(st, source); index < len; index++) {
                    if (index == 0 && !whole) continue;
                    int counts = index != 0 && !(ignored && has_run(st, source, st->c[source][index] / 13));
                    for (int e = 0; e < nempty; e++) {
                        out[n].s = (uint8_t)source;
                        out[n].i = (uint8_t)index;
                        out[n].d = (uint8_t)empties[e];
                        n++;
                    }
                    if (counts) available += nempty;
                }
            }
        } else {
            for (int suit = 0; suit < 4; suit++) {
                int king = 13 * suit + 12;
                if (!(up >> king & 1)) continue;
                int index = st->widx[king], source = st->wcol[king];
                if (index == 0 && !whole) continue;
                for (int e = 0; e < nempty; e++) {
                    out[n].s = (uint8_t)source;
                    out[n].i = (uint8_t)index;
                    out[n].d = (uint8_t)empties[e];
                    n++;
                }
                if (index != 0 && !(ignored && has_run(st, source, suit))) available += nempty;
            }
        }
    }
    *avail = available;
    return n;
}

static void collect_runs(State *st, int col) {
    for (;;) {
        int len = st->len[col];
        if (len < 13) return;
        uint8_t top = st->c[col][len - 1];
        if (top % 13) return;
        int suit = top / 13;
        for (int k = 0; k < 13; k++)
            if (st->c[col][len - 13 + k] != 13 * suit + 12 - k) return;
        st->suits |= (uint8_t)(1 << suit);
        st->cm[col] &= ~((uint64_t)0x1fff << (13 * suit));
        memset(st->key + 13 * suit, K_GONE, 13);
        len -= 13;
        st->len[col] = (uint8_t)len;
        if (len && st->c[col][len - 1] >= DOWN) flip_top(st, col);
    }
}

/* fast.apply_move, in place. */
static void play(State *st, Move m, int flags, int sweep) {
    int first, last; /* the columns where a run may have completed */
    if (m.s == NO) {
        int n = st->nstock;
        if (!(flags & F_PLAIN)) /* the bottoms the stock reached are like the others now */
            for (int i = 0; i < n; i++)
                if (st->len[i]) {
                    uint8_t *k = &st->key[st->c[i][0] & (DOWN - 1)];
                    *k = (uint8_t)(K_FLOOR | (*k & K_DOWN));
                }
        for (int i = 0; i < n; i++) {
            uint8_t card = st->stock[i];
            int len = st->len[i];
            st->key[card] = len ? st->c[i][len - 1] : (uint8_t)(flags & F_PLAIN ? K_BOTTOM + i : K_FLOOR);
            st->wcol[card] = (uint8_t)i;
            st->widx[card] = (uint8_t)len;
            st->c[i][len] = card;
            st->len[i] = (uint8_t)(len + 1);
            st->cm[i] |= BIT(card);
        }
        st->nstock = 0;
        first = 0;
        last = n - 1;
    } else {
        int cnt = st->len[m.s] - m.i, base = st->len[m.d];
        const uint8_t *moving = st->c[m.s] + m.i;
        uint64_t group = 0;
        st->key[moving[0]] = base ? st->c[m.d][base - 1] : bottom_of(st, m.d, flags);
        for (int k = 0; k < cnt; k++) {
            uint8_t card = moving[k];
            group |= BIT(card);
            st->wcol[card] = m.d;
            st->widx[card] = (uint8_t)(base + k);
        }
        memcpy(st->c[m.d] + base, moving, (size_t)cnt);
        st->len[m.d] = (uint8_t)(base + cnt);
        st->len[m.s] = m.i;
        st->cm[m.s] &= ~group;
        st->cm[m.d] |= group;
        if (m.i && st->c[m.s][m.i - 1] >= DOWN) flip_top(st, m.s);
        if (!(flags & F_COLLECT)) return;
        /* A run can complete only where an Ace is on top: on the destination, or on the source
         * when the moved cards sat on a complete run. */
        int len = st->len[m.s];
        if (len >= 13 && st->c[m.s][len - 1] % 13 == 0) collect_runs(st, m.s);
        first = last = m.d;
    }
    if (flags & F_COLLECT) {
        if (sweep) {
            first = 0;
            last = NCOL - 1;
        }
        for (int col = first; col <= last; col++) {
            int len = st->len[col];
            if (len >= 13 && st->c[col][len - 1] % 13 == 0) collect_runs(st, col);
        }
    }
}

/* fast.apply_move */
static inline void apply_move(const State *in, State *out, Move m, int flags, int sweep) {
    memcpy(out, in, sizeof *out);
    play(out, m, flags, sweep);
}

static int is_run(const State *st, int col) {
    if (st->len[col] != 13) return 0;
    uint8_t king = st->c[col][0];
    if (king >= 52 || king % 13 != 12) return 0;
    for (int k = 1; k < 13; k++)
        if (st->c[col][k] != king - k) return 0;
    return 1;
}

/* fast.won */
static int won(const State *st, int flags) {
    if (flags & F_COLLECT) return st->suits == 15;
    if (st->nstock) return 0;
    if (flags & F_ONE_PER_COLUMN) {
        for (int col = 0; col < NCOL; col++)
            if (st->len[col] && !is_run(st, col)) return 0;
        return 1;
    }
    int total = 0;
    for (int col = 0; col < NCOL; col++) total += st->len[col];
    if (total < 52) return 0;
    int runs = 0;
    for (int col = 0; col < NCOL; col++)
        for (int suit = 0; suit < 4; suit++) runs += has_run(st, col, suit);
    return runs >= 4;
}

/* reductions.order_moves (relabels are no-ops everywhere but at the root, which Python orders) */
static int order_moves(const State *st, const Move *moves, int n, int deal, Move *out) {
    Move second[MAX_MOVES], third[MAX_MOVES];
    int a = 0, b = 0, t = 0, reach = st->nstock;
    for (int k = 0; k < n; k++) {
        Move m = moves[k];
        if (!st->len[m.d]) {
            if (m.i == 0 && m.s >= reach && m.d >= reach) continue;
            third[t++] = m;
        } else if (m.i && st->c[m.s][m.i - 1] >= DOWN) {
            out[a++] = m;
        } else {
            second[b++] = m;
        }
    }
    memcpy(out + a, second, (size_t)b * sizeof(Move));
    a += b;
    memcpy(out + a, third, (size_t)t * sizeof(Move));
    a += t;
    if (deal) out[a++] = (Move){NO, NO, NO};
    return a;
}

static inline unsigned move_rank(Move m) { return (unsigned)m.s << 16 | (unsigned)m.i << 8 | m.d; }

/* the moves sorted, then the deal (reduced false) */
static int sorted_moves(const Move *moves, int n, int deal, Move *out) {
    for (int k = 0; k < n; k++) {
        Move m = moves[k];
        int j = k;
        while (j > 0 && move_rank(out[j - 1]) > move_rank(m)) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = m;
    }
    if (deal) out[n++] = (Move){NO, NO, NO};
    return n;
}

/* ---- safe moves (reductions.safe_move and settle) ---- */

/* Each card's suit and rank (0 the Ace, 12 the King), and the cards of its suit above it. */
static uint8_t SUIT[52], RANK[52];
static uint64_t HIGHER[52];

static void make_tables(void) {
    for (int card = 0; card < 52; card++) {
        SUIT[card] = (uint8_t)(card / 13);
        RANK[card] = (uint8_t)(card % 13);
        HIGHER[card] = ((BIT(12 - card % 13)) - 1) << (card + 1);
    }
}

/* Condition 3a: the group from (source, index) is X down to the Ace, and dest ends in the King down to X + 1. */
static int completes_run(const State *st, int source, int index, int dest, int x) {
    int suit = SUIT[x], rank = RANK[x], n = st->len[source] - index, m = 12 - rank, len = st->len[dest];
    if (n != rank + 1 || len < m || st->c[source][st->len[source] - 1] != 13 * suit) return 0;
    for (int k = 0; k < n; k++)
        if (st->c[source][index + k] != x - k) return 0;
    for (int k = 0; k < m; k++)
        if (st->c[dest][len - m + k] != 13 * suit + 12 - k) return 0;
    return 1;
}

/* Condition 3b: the group is frozen. */
static int frozen_group(const State *st, int source, int index) {
    const uint8_t *g = st->c[source] + index;
    int n = st->len[source] - index, top = g[n - 1];
    /* at once: the top is an Ace or has its predecessor below it in the group */
    if (top % 13 && !(st->wcol[top - 1] == source && st->cm[source] >> (top - 1) & 1 && st->widx[top - 1] > index))
        return 0;
    uint64_t below = (uint64_t)1 << g[0];
    for (int k = 1; k < n; k++) {
        int card = g[k];
        if (card % 13 == 12 || !(below >> (card + 1) & 1)) return 0;
        below |= (uint64_t)1 << card;
    }
    return top % 13 == 0 || (n > 1 && ((below & ~((uint64_t)1 << top)) >> (top - 1) & 1));
}

/* Condition 3c: the column is frozen (first: its first face-up card). */
static int frozen_column(const State *st, int col, int first) {
    /* at once: the top is a King or has its successor in the column */
    int top = st->c[col][st->len[col] - 1];
    if (top % 13 != 12 && !((st->cm[col] | st->dm[col]) >> (top + 1) & 1)) return 0;
    uint64_t below = st->dm[col];
    for (int j = first; j < st->len[col]; j++) {
        int card = st->c[col][j];
        if (card % 13 == 12) {
            below = (uint64_t)1 << card;
        } else if (!(below >> (card + 1) & 1)) {
            return 0;
        } else {
            below |= (uint64_t)1 << card;
        }
    }
    return 1;
}

/* Condition 3d: every column holding a face-up card of x's suit above x holds only such cards. */
static int apart(const uint64_t *masks, int x) {
    uint64_t higher = HIGHER[x];
    for (int col = 0; col < NCOL; col++)
        if ((masks[col] & higher) && (masks[col] & ~higher)) return 0;
    return 1;
}

/* reductions.safe_move: 1, with the move in *m, if there is one. */
static int safe_move(const State *st, int flags, Move *m) {
    if (st->nstock) {
        if (flags & F_ANY_TIME) return 0;
    } else if (flags & F_RUNS_IGNORED) {
        return 0;
    }
    int kings_only = !(flags & F_EMPTY_ANY);
    uint64_t up = face_up(st);
    for (int dest = 0; dest < NCOL; dest++) {
        int len = st->len[dest];
        if (!len) continue;
        int target = st->c[dest][len - 1];
        if (!RANK[target]) continue;
        int x = target - 1;
        if (!(up >> x & 1) || st->wcol[x] == dest) continue;
        int source = st->wcol[x], index = st->widx[x];
        if (completes_run(st, source, index, dest, x) || (kings_only && frozen_group(st, source, index)) ||
            (kings_only && frozen_column(st, dest, down_count(st, dest))) || apart(st->cm, x)) {
            m->s = (uint8_t)source;
            m->i = (uint8_t)index;
            m->d = (uint8_t)dest;
            return 1;
        }
    }
    return 0;
}

/* reductions.settle, in place. */
static void settle(State *st, int flags) {
    Move m;
    while (safe_move(st, flags, &m)) play(st, m, flags, 0);
}

/* ---- keys and the table ---- */

/* The key of a state read from Python (flags: F_PLAIN or not), made from scratch. */
static void make_key(State *st, int flags) {
    memset(st->key, K_GONE, KEYLEN);
    for (int col = 0; col < NCOL; col++)
        for (int j = 0; j < st->len[col]; j++) {
            uint8_t v = st->c[col][j];
            uint8_t under = j ? (uint8_t)(st->c[col][j - 1] & (DOWN - 1)) : bottom_of(st, col, flags);
            st->key[v & (DOWN - 1)] = (uint8_t)(under | (v >= DOWN ? K_DOWN : 0));
        }
    for (int k = 0; k < st->nstock; k++) st->key[st->stock[k]] = (uint8_t)(K_STOCK + k);
}

/* A 64-bit hash of a key (52 bytes: six 8-byte words and one of 4). */
static inline uint64_t hash_key(const uint8_t *k) {
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 48; i += 8) {
        uint64_t v;
        memcpy(&v, k + i, 8);
        h = (h ^ (v * 0xbf58476d1ce4e5b9ull)) * 0x94d049bb133111ebull;
        h = h << 27 | h >> 37;
    }
    uint32_t w;
    memcpy(&w, k + 48, 4);
    h = (h ^ (w * 0xbf58476d1ce4e5b9ull)) * 0x94d049bb133111ebull;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return h;
}

static inline const uint8_t *entry_at(const Ctx *c, uint64_t n) {
    return c->chunks[n >> CHUNK_BITS] + (n & (CHUNK_ENTRIES - 1)) * KEYLEN;
}

/* Twice the slots; the keys are read back in the arena's order (sequentially, not through
 * the old slots). */
static int grow_table(Ctx *c) {
    size_t cap = (c->mask + 1) * 2;
    uint64_t *slots = grab(c, cap * sizeof(uint64_t));
    if (slots == NULL) return -1;
    memset(slots, 0, cap * sizeof(uint64_t));
    for (size_t n = 0; n < c->count; n++) {
        uint64_t h = hash_key(entry_at(c, n));
        size_t i = h & (cap - 1);
        while (slots[i]) i = (i + 1) & (cap - 1);
        slots[i] = (h >> 32) << 32 | (n + 1);
    }
    free(c->slots);
    c->used -= (c->mask + 1) * sizeof(uint64_t);
    c->slots = slots;
    c->mask = cap - 1;
    return 0;
}

/* 1: the key was new and is now in the table; 0: it was there; -1: out of memory. */
static int insert(Ctx *c, const uint8_t *key, uint64_t h) {
    if ((c->count + 1) * 10 > (c->mask + 1) * 7 && grow_table(c) < 0) return -1;
    uint64_t tag = h >> 32;
    size_t at = h & c->mask;
    for (;;) {
        uint64_t v = c->slots[at];
        if (!v) break;
        if (v >> 32 == tag && memcmp(entry_at(c, (v & 0xffffffffu) - 1), key, KEYLEN) == 0) return 0;
        at = (at + 1) & c->mask;
    }
    if (c->count >= MAX_ENTRIES) return -1;
    if (c->count == c->nchunks << CHUNK_BITS) {
        if (c->nchunks == c->chunks_cap) {
            size_t cap = c->chunks_cap ? c->chunks_cap * 2 : 64;
            uint8_t **chunks = regrab(c, c->chunks, c->chunks_cap * sizeof(uint8_t *), cap * sizeof(uint8_t *));
            if (chunks == NULL) return -1;
            c->chunks = chunks;
            c->chunks_cap = cap;
        }
        uint8_t *chunk = grab(c, CHUNK_SIZE);
        if (chunk == NULL) return -1;
        c->chunks[c->nchunks++] = chunk;
    }
    memcpy((uint8_t *)entry_at(c, c->count), key, KEYLEN);
    c->slots[at] = tag << 32 | (c->count + 1);
    c->count++;
    return 1;
}

static int push_move(Ctx *c, Move m) {
    if (c->moves_top == c->moves_cap) {
        size_t cap = c->moves_cap * 2;
        Move *moves = regrab(c, c->moves, c->moves_cap * sizeof(Move), cap * sizeof(Move));
        if (moves == NULL) return -1;
        c->moves = moves;
        c->moves_cap = cap;
    }
    c->moves[c->moves_top++] = m;
    return 0;
}

static int set_line(Ctx *c, Move last, Move step, int with_step) {
    size_t n = (size_t)c->depth + 1 + (size_t)with_step;
    c->line = malloc(n * sizeof(Move)); /* small, and freed at once: not counted */
    if (c->line == NULL) return RUN_MEMORY;
    for (long d = 1; d <= c->depth; d++) c->line[d - 1] = c->frames[d].in;
    c->line[c->depth] = last;
    if (with_step) c->line[c->depth + 1] = step;
    c->line_len = n;
    return RUN_WON;
}

/* ---- the loop ---- */

/* search.py's loop, from where it stopped, until a check point or the end. */
static int advance(Ctx *c) {
    Move ordered[MAX_MOVES + 1];
    int empties[NCOL];
    if (c->pending) {
        c->pending = 0;
        goto expand;
    }
    for (;;) {
        if (c->depth < 0) return RUN_LOST;
        if ((size_t)c->depth + 2 > c->frames_cap) {
            size_t cap = c->frames_cap * 2;
            Frame *frames = regrab(c, c->frames, c->frames_cap * sizeof(Frame), cap * sizeof(Frame));
            if (frames == NULL) return RUN_MEMORY;
            c->frames = frames;
            c->frames_cap = cap;
        }
        Frame *f = &c->frames[c->depth];
        if (f->cursor == f->count) {
            c->moves_top = f->base;
            c->depth--;
            continue;
        }
        Move m = c->moves[f->base + f->cursor++];
        State *here = &c->frames[c->depth + 1].s;
        apply_move(&f->s, here, m, c->flags, c->depth == 0 && c->latent);
        if (c->reduced) settle(here, c->flags);
        int nempty = 0;
        if (c->reduced) {
            int reach = here->nstock;
            for (int d = 0; d < reach; d++)
                if (!here->len[d]) empties[nempty++] = d;
            for (int d = reach; d < NCOL; d++)
                if (!here->len[d]) {
                    empties[nempty++] = d;
                    break;
                }
        } else {
            for (int d = 0; d < NCOL; d++)
                if (!here->len[d]) empties[nempty++] = d;
        }
        c->nbuf = moves_of(here, c->flags, empties, nempty, c->buf, &c->avail);
        if (!c->avail && !here->nstock) continue; /* the game is lost there */
        if (c->nodes >= c->max_nodes) {
            f->cursor--; /* expanded first when the search goes on */
            return RUN_NODES;
        }
        c->nodes++;
        c->cur = m;
        if (c->nodes >= c->next_check) {
            c->next_check += c->check_every;
            c->pending = 1;
            return RUN_CHECK;
        }
    expand:;
        here = &c->frames[c->depth + 1].s;
        int deal = here->nstock && ((c->flags & F_ANY_TIME) || !c->avail);
        int n = c->reduced ? order_moves(here, c->buf, c->nbuf, deal, ordered)
                           : sorted_moves(c->buf, c->nbuf, deal, ordered);
        size_t base = c->moves_top;
        State child;
        for (int k = 0; k < n; k++) {
            apply_move(here, &child, ordered[k], c->flags, 0);
            if (c->reduced) settle(&child, c->flags);
            if (won(&child, c->flags)) return set_line(c, c->cur, ordered[k], 1);
            memcpy(c->keys[k], child.key, KEYLEN);
            c->key_hash[k] = hash_key(child.key);
            __builtin_prefetch(&c->slots[c->key_hash[k] & c->mask]);
        }
        for (int k = 0; k < n; k++) {
            int r = insert(c, c->keys[k], c->key_hash[k]);
            if (r < 0) return RUN_MEMORY;
            if (r && push_move(c, ordered[k]) < 0) return RUN_MEMORY;
        }
        c->depth++;
        Frame *g = &c->frames[c->depth];
        g->base = base;
        g->count = (uint32_t)(c->moves_top - base);
        g->cursor = 0;
        g->in = c->cur;
    }
}

/* The root: its key, then its children (made with the sweep when `latent`). */
static int start(Ctx *c, const State *root, const Move *root_moves, int nroot) {
    c->mask = 1023;
    c->slots = grab(c, (c->mask + 1) * sizeof(uint64_t));
    c->frames_cap = 16;
    c->frames = grab(c, c->frames_cap * sizeof(Frame));
    c->moves_cap = 1024;
    c->moves = grab(c, c->moves_cap * sizeof(Move));
    if (c->slots == NULL || c->frames == NULL || c->moves == NULL) return RUN_MEMORY;
    memset(c->slots, 0, (c->mask + 1) * sizeof(uint64_t));
    Frame *f = &c->frames[0];
    f->s = *root;
    make_key(&f->s, c->flags);
    if (insert(c, f->s.key, hash_key(f->s.key)) < 0) return RUN_MEMORY;
    f->base = 0;
    f->cursor = 0;
    State child;
    for (int k = 0; k < nroot; k++) {
        apply_move(&f->s, &child, root_moves[k], c->flags, c->latent);
        if (c->reduced) settle(&child, c->flags);
        if (won(&child, c->flags)) {
            c->nodes = 1;
            c->depth = 0;
            return set_line(c, root_moves[k], root_moves[k], 0);
        }
        int r = insert(c, child.key, hash_key(child.key));
        if (r < 0) return RUN_MEMORY;
        if (r && push_move(c, root_moves[k]) < 0) return RUN_MEMORY;
    }
    f->count = (uint32_t)c->moves_top;
    c->depth = 0;
    c->nodes = 1;
    c->next_check = c->check_every;
    return RUN_GO;
}

/* ---- the Python side ---- */

static int read_state(PyObject *columns, PyObject *stock, int collected, State *st) {
    if (!PyTuple_Check(columns) || PyTuple_GET_SIZE(columns) != NCOL || !PyBytes_Check(stock)) {
        PyErr_SetString(PyExc_TypeError, "columns must be a tuple of 7 bytes values and stock bytes");
        return -1;
    }
    memset(st, 0, sizeof *st);
    uint64_t seen = 0;
    int total = 0;
    for (int col = 0; col < NCOL; col++) {
        PyObject *item = PyTuple_GET_ITEM(columns, col);
        if (!PyBytes_Check(item)) {
            PyErr_SetString(PyExc_TypeError, "every column must be a bytes value");
            return -1;
        }
        Py_ssize_t len = PyBytes_GET_SIZE(item);
        const uint8_t *b = (const uint8_t *)PyBytes_AS_STRING(item);
        total += (int)len;
        if (total > 52) goto bad;
        int up = 0;
        for (Py_ssize_t j = 0; j < len; j++) {
            uint8_t v = b[j];
            int card = v >= DOWN ? v - DOWN : v;
            if (card >= 52 || (v < DOWN && v >= 52) || (seen >> card & 1)) goto bad;
            if (v >= DOWN && up) goto bad; /* a face-down card on a face-up one */
            up |= v < DOWN;
            seen |= (uint64_t)1 << card;
            st->c[col][j] = v;
            if (v < DOWN) {
                st->cm[col] |= BIT(v);
                st->wcol[v] = (uint8_t)col;
                st->widx[v] = (uint8_t)j;
            } else {
                st->dm[col] |= BIT(v - DOWN);
                st->nd[col]++;
            }
        }
        if (len && !up) goto bad; /* a column's top card is face up */
        st->len[col] = (uint8_t)len;
    }
    Py_ssize_t n = PyBytes_GET_SIZE(stock);
    const uint8_t *b = (const uint8_t *)PyBytes_AS_STRING(stock);
    if (n > NCOL || total + n > 52) goto bad;
    for (Py_ssize_t j = 0; j < n; j++) {
        if (b[j] >= 52 || (seen >> b[j] & 1)) goto bad;
        seen |= (uint64_t)1 << b[j];
        st->stock[j] = b[j];
    }
    st->nstock = (uint8_t)n;
    if (collected < 0 || collected > 15) goto bad;
    st->suits = (uint8_t)collected;
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "not a state of scorpion_ref.solver.fast: bad cards, columns or stock");
    return -1;
}

/* A count from Python: an int of at least 0; one past 2**64 - 1 is read as 2**64 - 1 (never wrapped). */
static int read_count(PyObject *value, const char *name, uint64_t *out) {
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int", name);
        return -1;
    }
    PyObject *zero = PyLong_FromLong(0);
    if (zero == NULL) return -1;
    int negative = PyObject_RichCompareBool(value, zero, Py_LT);
    Py_DECREF(zero);
    if (negative < 0) return -1;
    if (negative) {
        PyErr_Format(PyExc_OverflowError, "%s must be at least 0", name);
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(value); /* OverflowError past 2**64 - 1 */
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = v;
    return 0;
}

static PyObject *answer(Ctx *c, int rc) {
    static const char *outcomes[] = {"unknown", "won", "lost", "unknown", "unknown"};
    static const char *proofs[] = {NULL, NULL, "exhausted", "nodes", "memory"};
    PyObject *line = PyList_New((Py_ssize_t)c->line_len);
    if (line == NULL) return NULL;
    for (size_t k = 0; k < c->line_len; k++) {
        Move m = c->line[k];
        PyObject *t = m.s == NO ? Py_BuildValue("(iii)", -1, -1, -1) : Py_BuildValue("(iii)", m.s, m.i, m.d);
        if (t == NULL) {
            Py_DECREF(line);
            return NULL;
        }
        PyList_SET_ITEM(line, (Py_ssize_t)k, t);
    }
    PyObject *proof = proofs[rc] ? PyUnicode_FromString(proofs[rc]) : Py_NewRef(Py_None);
    if (proof == NULL) {
        Py_DECREF(line);
        return NULL;
    }
    return Py_BuildValue("(sNKNnK)", outcomes[rc], proof, (unsigned long long)c->nodes, line,
                         (Py_ssize_t)c->count, (unsigned long long)c->peak);
}

typedef struct {
    PyObject_HEAD
    Ctx *c;          /* NULL once the search is over (its answer is kept) or broken */
    State root;
    Move *root_moves;
    int nroot;
    int started;
    int busy;        /* run() is searching (another thread may not use the object meanwhile) */
    PyObject *final; /* the answer once won, lost or out of memory */
    int broken;      /* an exception ended a run: the search cannot go on */
} SearchObject;

static void search_free_ctx(SearchObject *self) {
    if (self->c != NULL) {
        release(self->c);
        free(self->c);
        self->c = NULL;
    }
}

static void search_dealloc(SearchObject *self) {
    search_free_ctx(self);
    free(self->root_moves);
    Py_XDECREF(self->final);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int search_init(SearchObject *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"columns", "stock", "collected", "flags", "reduced", "latent", "root_moves",
                            "memory_limit", NULL};
    PyObject *columns, *stock, *root_list, *memory;
    int collected, flags, reduced, latent;
    if (self->c != NULL || self->started || self->final != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "a Search is set up once");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOiippOO", names, &columns, &stock, &collected, &flags,
                                     &reduced, &latent, &root_list, &memory))
        return -1;
    uint64_t limit;
    if (read_count(memory, "memory_limit", &limit) < 0) return -1;
    if (read_state(columns, stock, collected, &self->root) < 0) return -1;
    PyObject *seq = PySequence_Fast(root_list, "root_moves must be a sequence of (source, index, dest)");
    if (seq == NULL) return -1;
    Py_ssize_t nroot = PySequence_Fast_GET_SIZE(seq);
    self->root_moves = malloc(((size_t)nroot + 1) * sizeof(Move));
    if (self->root_moves == NULL) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t k = 0; k < nroot; k++) {
        int s, i, d;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, k), "iii", &s, &i, &d)) {
            Py_DECREF(seq);
            return -1;
        }
        if (s == -1 && i == -1 && d == -1 && self->root.nstock) {
            self->root_moves[k] = (Move){NO, NO, NO};
        } else if (s >= 0 && s < NCOL && d >= 0 && d < NCOL && s != d && i >= 0 && i < self->root.len[s]) {
            self->root_moves[k] = (Move){(uint8_t)s, (uint8_t)i, (uint8_t)d};
        } else {
            PyErr_Format(PyExc_ValueError, "(%d, %d, %d) is not a move of the root", s, i, d);
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    self->nroot = (int)nroot;
    self->c = calloc(1, sizeof(Ctx));
    if (self->c == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->c->flags = flags | (reduced ? 0 : F_PLAIN);
    self->c->reduced = reduced;
    self->c->latent = latent;
    self->c->limit = limit;
    return 0;
}

static PyObject *search_run(SearchObject *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"max_nodes", "progress", "check_every", NULL};
    PyObject *max_obj, *progress, *every_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO", names, &max_obj, &progress, &every_obj)) return NULL;
    uint64_t max_nodes, check_every;
    if (read_count(max_obj, "max_nodes", &max_nodes) < 0 || read_count(every_obj, "check_every", &check_every) < 0)
        return NULL;
    if (check_every < 1) {
        PyErr_SetString(PyExc_ValueError, "check_every is at least 1");
        return NULL;
    }
    if (progress != Py_None && !PyCallable_Check(progress)) {
        PyErr_SetString(PyExc_TypeError, "progress must be callable or None");
        return NULL;
    }
    if (self->final != NULL) return Py_NewRef(self->final);
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this Search is running in another thread");
        return NULL;
    }
    if (self->broken || self->c == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "this Search was ended by an exception and cannot go on");
        return NULL;
    }
    Ctx *c = self->c;
    if (max_nodes < c->nodes) {
        PyErr_SetString(PyExc_ValueError, "max_nodes is smaller than the positions already searched");
        return NULL;
    }
    c->max_nodes = max_nodes;
    int rc;
    if (!self->started) {
        self->started = 1;
        c->check_every = check_every;
        rc = start(c, &self->root, self->root_moves, self->nroot);
    } else {
        rc = RUN_GO;
    }
    self->busy = 1;
    while (rc == RUN_GO || rc == RUN_CHECK) {
        if (rc == RUN_CHECK) {
            if (progress != Py_None) {
                PyObject *nodes = PyLong_FromUnsignedLongLong(c->nodes);
                PyObject *r = nodes == NULL ? NULL : PyObject_CallOneArg(progress, nodes);
                Py_XDECREF(nodes);
                if (r == NULL) goto broken;
                Py_DECREF(r);
            }
            if (PyErr_CheckSignals() < 0) goto broken;
        }
        Py_BEGIN_ALLOW_THREADS
        rc = advance(c);
        Py_END_ALLOW_THREADS
    }
    self->busy = 0;
    PyObject *result = answer(c, rc);
    if (result == NULL) goto broken_quiet;
    if (rc != RUN_NODES) { /* won, lost or out of memory: the answer is final, the table is freed */
        self->final = Py_NewRef(result);
        search_free_ctx(self);
    }
    return result;
broken:
    self->busy = 0;
broken_quiet:
    self->broken = 1;
    search_free_ctx(self);
    return NULL;
}

static PyMethodDef search_methods[] = {
    {"run", (PyCFunction)(void (*)(void))search_run, METH_VARARGS | METH_KEYWORDS,
     "run(max_nodes, progress, check_every) -> (outcome, proof, nodes, line, table_entries, peak_bytes)\n\n"
     "Search until max_nodes positions in all, going on from where the last call stopped."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "scorpion_ref.solver._core.Search",
    .tp_doc = "Search(columns, stock, collected, flags, reduced, latent, root_moves, memory_limit)\n\n"
              "The loop of scorpion_ref.solver.search after its root checks, which can go on.",
    .tp_basicsize = sizeof(SearchObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)search_init,
    .tp_dealloc = (destructor)search_dealloc,
    .tp_methods = search_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core", "The compiled core of the solver's search (see search.py).", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    make_tables();
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "KEY_LENGTH", KEYLEN) < 0 ||
        PyModule_AddIntConstant(m, "CHUNK_SIZE", (long)CHUNK_SIZE) < 0 ||
        PyModule_AddObjectRef(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
