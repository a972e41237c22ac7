/* The CFR+ walk for one floating type: included by _cfr.c with REAL, NAME and REAL_TINY set.
 *
 * Hands are padded to HP (a multiple of LANES) with hands of chance weight zero, so every
 * loop over hands is whole blocks of LANES that the compiler turns into vector code. Padded
 * hands have zero reach and zero payoff: they never make a history live and never enter a
 * value; the masks of live raises are taken over the real hands only.
 *
 * Each raise (edge) and each node of player p has one record of that player's figures for
 * every hand: regrets (REAL, clipped at zero), current strategy (REAL), average (double: the
 * t^2-weighted sums lose too much in float). A record is REC[p] bytes; a node's raises are
 * consecutive records.
 */

typedef struct {
    const struct NAME(Solver) *s;
    int u;
    double weight;  /* of this iteration in the other player's average */
    long iteration; /* the iteration being run (1, 2, ...) */
    int mode;       /* WALK_FULL, WALK_COLLECT or WALK_FINISH */
    int fdepth;     /* frontier depth of the collect and finish walks */
    long cursor;    /* next frontier item (finish) */
    long visited;
    REAL *scratch;  /* this thread's: per depth (n + 4) rows of HPmax */
} NAME(Ctx);

typedef struct {
    int32_t node;
    int8_t actor_is_u;
    uint64_t rm;
} NAME(Item);

typedef struct NAME(Solver) {
    Tree *t;
    int HP[2];
    size_t rec[2];       /* bytes of one record of player p */
    unsigned char *E[2]; /* edge records */
    unsigned char *N[2]; /* node records (dudo) */
    uint64_t *hm[2];     /* per edge: the hands that take it (bit y: hand y; at most 64 hands) */
    REAL *w[2];          /* chance weight of each hand (zero for padding) */
    REAL *thr[2];        /* per hand: raise probabilities at most this are not live (floor) */
    double *wd[2];
    REAL *pay[2];        /* pay[u][((caller * n + r) * (D[q] + 1) + c) * HP[u] + x] */
    double *payd[2];
    int threads;
    size_t per_depth;    /* REALs of scratch per depth */
    size_t per_thread;
    REAL *scratch;       /* threads x per_thread */
    double *scratchd;    /* best responses: one region per player (they may run at once) */
    NAME(Item) *items;   /* frontier of the parallel walk */
    long nitems, capitems;
    REAL *frho, *fout;   /* per item: the reach it is walked with, the values it returns */
    long iterations;
    long visited[2];
    int discounted;      /* 0: CFR+ (regret matching+); 1: discounted CFR */
    REAL floor;          /* reach of the other player below which a raise is not followed */
    double alpha, beta;  /* DCFR's discounts of positive and negative regrets */
    double *logpa, *logpb; /* logpa[t] = sum over s <= t of log(s^alpha / (s^alpha + 1)) */
    double *stepa, *stepb; /* stepa[t] = t^alpha / (t^alpha + 1) */
    long logcap;
    double *snap[2];     /* a copy of each player's average (cfr_snapshot): nodes, then edges */
    float *marks[MAX_MARKS][2]; /* earlier averages (cfr_mark), in float: nodes, then edges */
    double *backup[2];   /* the average while a window of it stands in (cfr_window) */
    int windowed;
} NAME(S);

#define R_OF(s, p, base, i) ((REAL *)((base) + (size_t)(i) * (s)->rec[p]))
#define S_OF(s, p, base, i) (R_OF(s, p, base, i) + (s)->HP[p])
#define A_OF(s, p, base, i) ((double *)(S_OF(s, p, base, i) + (s)->HP[p]))

Tree *NAME(tree_of)(const void *solver) { return ((const NAME(S) *)solver)->t; }

void NAME(cfr_free)(void *solver) {
    NAME(S) *s = solver;
    if (!s) return;
    for (int p = 0; p < 2; p++) {
        free(s->E[p]);
        free(s->N[p]);
        free(s->hm[p]);
        free(s->snap[p]);
        free(s->backup[p]);
        for (int m = 0; m < MAX_MARKS; m++) free(s->marks[m][p]);
        free(s->w[p]);
        free(s->thr[p]);
        free(s->wd[p]);
        free(s->pay[p]);
        free(s->payd[p]);
    }
    free(s->scratch);
    free(s->scratchd);
    free(s->items);
    free(s->frho);
    free(s->fout);
    free(s->logpa);
    free(s->logpb);
    free(s->stepa);
    free(s->stepb);
    if (s->t) tree_free(s->t);
    free(s);
}

/* Zeroed memory aligned for vector loads. Large arrays are asked to sit on huge pages: the
 * walk jumps about arrays of tens of megabytes, and with 4 KiB pages most of its time went to
 * TLB misses. */
static void *NAME(zalloc)(size_t bytes) {
    size_t align = bytes >= HUGE_PAGE ? HUGE_PAGE : 64;
    size_t b = (bytes + align - 1) / align * align;
    void *p = NULL;
    if (posix_memalign(&p, align, b ? b : 64)) return NULL;
#ifdef MADV_HUGEPAGE
    if (align == HUGE_PAGE) madvise(p, b, MADV_HUGEPAGE);
#endif
    memset(p, 0, b ? b : 64);
    return p;
}

/* The hands whose probability in row p (H entries, H at most 64) is above thr (per hand; NULL:
 * above zero), as a bit mask. Raises use the player's thresholds of cfr_set_floor: with a
 * reach floor, a hand whose probability of a raise is at most 0.999 x floor / (its chance
 * weight) cannot bring its reach there up to the floor (a reach is at most the chance weight),
 * so the raise is not live for it, and its row is not read. */
static inline uint64_t NAME(hands_taking)(const REAL *restrict p, const REAL *restrict thr,
                                          int H) {
    uint64_t m = 0;
    for (int x = 0; x < H; x++) m |= (uint64_t)(p[x] > (thr ? thr[x] : (REAL)0)) << x;
    return m;
}

/* Recomputes the masks of a node from its current strategy. */
static void NAME(masks)(NAME(S) *s, int p, int32_t nd) {
    const Tree *t = s->t;
    int H = t->H[p], k = t->nd[p][nd].k;
    int32_t e0 = t->nd[p][nd].e0;
    uint32_t mask = 0;
    for (int i = 0; i < k; i++) {
        uint64_t m = NAME(hands_taking)(S_OF(s, p, s->E[p], e0 + i), s->thr[p], H);
        s->hm[p][e0 + i] = m;
        if (m) mask |= 1u << i;
    }
    t->nd[p][nd].act = mask;
    t->nd[p][nd].dhm =
        t->nd[p][nd].top >= 0 ? NAME(hands_taking)(S_OF(s, p, s->N[p], nd), NULL, H) : 0;
}

/* The uniform strategy at every node (what regret matching+ plays with no regret). */
static void NAME(uniform)(NAME(S) *s, int p) {
    const Tree *t = s->t;
    int HP = s->HP[p];
    for (int32_t nd = 0; nd < t->nodes[p]; nd++) {
        int k = t->nd[p][nd].k, dl = t->nd[p][nd].top >= 0;
        REAL u = (REAL)(1.0 / (double)(k + dl));
        for (int i = 0; i < k; i++) {
            REAL *sr = S_OF(s, p, s->E[p], t->nd[p][nd].e0 + i);
            for (int x = 0; x < HP; x++) sr[x] = u;
        }
        REAL *sd = S_OF(s, p, s->N[p], nd);
        for (int x = 0; x < HP; x++) sd[x] = dl ? u : (REAL)0;
        NAME(masks)(s, p, nd);
    }
}

/* A solver for the tree (see tree_new) with chance weights w_p and payoffs pay_p
 * ([caller][rank][count of the other player][hand of p], doubles). NULL when memory runs out. */
void *NAME(cfr_new)(int n, const uint8_t *opening, const uint8_t *ok0, const uint8_t *ok1, int h0,
                    int h1, int d0, int d1, const uint8_t *cnt0, const uint8_t *cnt1,
                    const double *w0, const double *w1, const double *pay0, const double *pay1,
                    int threads) {
    NAME(S) *s = calloc(1, sizeof(NAME(S)));
    if (!s) return NULL;
    s->t = tree_new(n, opening, ok0, ok1, h0, h1, d0, d1, cnt0, cnt1);
    if (!s->t) {
        free(s);
        return NULL;
    }
    const Tree *t = s->t;
    const double *w[2] = {w0, w1};
    const double *pay[2] = {pay0, pay1};
    int fail = 0;
    for (int p = 0; p < 2; p++) {
        int H = t->H[p];
        int HP = (H + LANES - 1) / LANES * LANES;
        s->HP[p] = HP;
        s->rec[p] = 2 * (size_t)HP * sizeof(REAL) + (size_t)HP * sizeof(double);
        s->E[p] = NAME(zalloc)(((size_t)t->edges[p] + 1) * s->rec[p]);
        s->N[p] = NAME(zalloc)(((size_t)t->nodes[p] + 1) * s->rec[p]);
        s->hm[p] = NAME(zalloc)(((size_t)t->edges[p] + 1) * sizeof(uint64_t));
        s->w[p] = NAME(zalloc)((size_t)HP * sizeof(REAL));
        s->thr[p] = NAME(zalloc)((size_t)HP * sizeof(REAL));
        s->wd[p] = NAME(zalloc)((size_t)HP * sizeof(double));
        int C = t->D[1 - p] + 1;
        size_t np = 2 * (size_t)n * (size_t)C * (size_t)HP;
        s->pay[p] = NAME(zalloc)(np * sizeof(REAL));
        s->payd[p] = NAME(zalloc)(np * sizeof(double));
        fail |= !s->E[p] || !s->N[p] || !s->hm[p] || !s->w[p] || !s->thr[p] || !s->wd[p] ||
                !s->pay[p] || !s->payd[p];
        if (fail) break;
        for (int x = 0; x < H; x++) {
            s->w[p][x] = (REAL)w[p][x];
            s->wd[p][x] = w[p][x];
        }
        for (size_t row = 0; row < 2 * (size_t)n * (size_t)C; row++)
            for (int x = 0; x < H; x++) {
                s->pay[p][row * HP + x] = (REAL)pay[p][row * H + x];
                s->payd[p][row * HP + x] = pay[p][row * H + x];
            }
    }
    if (!fail) {
        s->threads = threads < 1 ? 1 : threads;
        int hmax = s->HP[0] > s->HP[1] ? s->HP[0] : s->HP[1];
        s->per_depth = (size_t)(n + 4) * (size_t)hmax;
        s->per_thread = s->per_depth * (size_t)(n + 3);
        s->scratch = NAME(zalloc)(s->per_thread * (size_t)s->threads * sizeof(REAL));
        s->scratchd = NAME(zalloc)(2 * s->per_thread * sizeof(double));
        fail = !s->scratch || !s->scratchd;
    }
    if (fail) {
        NAME(cfr_free)(s);
        return NULL;
    }
    NAME(uniform)(s, 0);
    NAME(uniform)(s, 1);
    return s;
}

typedef REAL NAME(vec) __attribute__((vector_size(32)));
#define VLEN ((int)(32 / sizeof(REAL)))

/* Asks for the cache lines of [p, p + bytes) ahead of use. */
static inline void NAME(fetch)(const void *p, size_t bytes, int write) {
    const char *c = p;
    for (size_t i = 0; i < bytes; i += 64) {
        if (write)
            __builtin_prefetch(c + i, 1);
        else
            __builtin_prefetch(c + i, 0);
    }
}

/* Asks for the cache lines of the entries of the hands in m of a row of `size`-byte entries. */
static inline void NAME(fetch_hands)(const void *row, size_t size, uint64_t m, int write) {
    const char *c = row;
    uintptr_t last = 0;
    for (; m; m &= m - 1) {
        const char *at = c + (size_t)__builtin_ctzll(m) * size;
        uintptr_t line = (uintptr_t)at >> 6;
        if (line == last) continue;
        last = line;
        if (write)
            __builtin_prefetch(at, 1);
        else
            __builtin_prefetch(at, 0);
    }
}

/* u's counterfactual values (hands of u) of a challenge by `caller` on the bid of rank r, the
 * other player's hands weighted by rho (zero outside the hands in m): the reach of the other
 * player's hands with each count of the bid's face, times u's payoff by count.
 *
 * Only the hands in m are read (the other player's reach is positive for a few hands at most
 * nodes). The reach of each count is summed as a dot product of rho with the count's indicator
 * row in vector lanes would be, lane by lane and then across the lanes, so the sums (and the
 * whole walk) round exactly as the dense products do. */
static inline void NAME(terminal)(const NAME(S) *s, int u, int caller, int r,
                                  const REAL *restrict rho, uint64_t m, REAL *restrict out) {
    const Tree *t = s->t;
    int q = 1 - u, HPu = s->HP[u], C = t->D[q] + 1;
    const uint8_t *cnt = t->cnt[q] + (size_t)r * t->H[q];
    REAL lanes[MAX_COUNT][VLEN];
    for (int c = 0; c < C; c++)
        for (int j = 0; j < VLEN; j++) lanes[c][j] = 0;
    for (; m; m &= m - 1) {
        int y = __builtin_ctzll(m);
        lanes[cnt[y]][y % VLEN] += rho[y];
    }
    REAL a[MAX_COUNT];
    for (int c = 0; c < C; c++) {
        REAL sum = 0;
        for (int j = 0; j < VLEN; j++) sum += lanes[c][j];
        a[c] = sum;
    }
    const REAL *restrict pay = s->pay[u] + ((size_t)(caller * t->n + r) * C) * HPu;
    for (int x = 0; x < HPu; x++) out[x] = a[0] * pay[x];
    for (int c = 1; c < C; c++) {
        if (a[c] == 0) continue;
        const REAL *restrict pc = pay + (size_t)c * HPu;
        for (int x = 0; x < HPu; x++) out[x] += a[c] * pc[x];
    }
}

/* The discounts of discounted CFR from iteration `from` (exclusive) to `to` (inclusive), for
 * positive and for negative regrets. */
static inline void NAME(pending)(const NAME(S) *s, long from, long to, REAL *fp, REAL *fn) {
    if (from == to - 1) { /* updated the iteration before: one step, from the table */
        *fp = (REAL)s->stepa[to];
        *fn = (REAL)s->stepb[to];
        return;
    }
    *fp = (REAL)exp(s->logpa[to] - s->logpa[from]);
    *fn = (REAL)exp(s->logpb[to] - s->logpb[from]);
}

/* One row of regrets: r <- r * (r > 0 ? fp : fn) + (v - node), clipped at zero when `clip`
 * (CFR+, with fp = fn = 1); the positive parts are added to norm. */
static inline void NAME(regret_row)(REAL *restrict r, const REAL *restrict v,
                                    const REAL *restrict node, REAL *restrict norm, int n,
                                    REAL fp, REAL fn, int clip) {
    for (int x = 0; x < n; x++) {
        REAL a = r[x] * (r[x] > 0 ? fp : fn) + (v[x] - node[x]);
        REAL pos = a > 0 ? a : 0;
        r[x] = clip ? pos : a;
        norm[x] += pos;
    }
}

static void NAME(walk_q)(NAME(Ctx) *cx, int32_t nd, const REAL *restrict rho, uint64_t rm,
                         REAL *restrict out, int depth);

/* At the frontier depth of a collect walk, the node is queued (with the reach it is reached
 * with) and its values left at zero; in the finish walk they are read back. Returns 1 when the
 * node was handled so. */
static int NAME(frontier)(NAME(Ctx) *cx, int32_t nd, int is_u, const REAL *restrict rho,
                          uint64_t rm, REAL *restrict out, int depth) {
    if (cx->mode == WALK_FULL || depth != cx->fdepth) return 0;
    NAME(S) *s = (NAME(S) *)cx->s;
    int u = cx->u, q = 1 - u, HPu = s->HP[u], HPq = s->HP[q];
    int hmax = s->HP[0] > s->HP[1] ? s->HP[0] : s->HP[1];
    if (cx->mode == WALK_COLLECT) {
        if (s->nitems == s->capitems) {
            long cap = s->capitems ? 2 * s->capitems : 256;
            NAME(Item) *items = realloc(s->items, (size_t)cap * sizeof(NAME(Item)));
            REAL *frho = realloc(s->frho, (size_t)cap * hmax * sizeof(REAL));
            REAL *fout = realloc(s->fout, (size_t)cap * hmax * sizeof(REAL));
            if (items) s->items = items;
            if (frho) s->frho = frho;
            if (fout) s->fout = fout;
            if (!items || !frho || !fout) {
                cx->mode = WALK_FAILED;
                return 1;
            }
            s->capitems = cap;
        }
        long i = s->nitems++;
        s->items[i].node = nd;
        s->items[i].actor_is_u = (int8_t)is_u;
        s->items[i].rm = rm;
        memcpy(s->frho + (size_t)i * hmax, rho, (size_t)HPq * sizeof(REAL));
        for (int x = 0; x < HPu; x++) out[x] = 0;
    } else {
        memcpy(out, s->fout + (size_t)(cx->cursor++) * hmax, (size_t)HPu * sizeof(REAL));
    }
    return 1;
}

/* Asks for the challenge rows of p's node nd (strategy and average: what a walk of the other
 * player's update reads there first), of the hands in rm. */
static inline void NAME(challenge_rows)(const NAME(S) *s, int p, int32_t nd, uint64_t rm) {
    NAME(fetch_hands)(S_OF(s, p, s->N[p], nd), sizeof(REAL), rm, 0);
    NAME(fetch_hands)(A_OF(s, p, s->N[p], nd), sizeof(double), rm, 1);
}

/* u to act at node nd, the other player's reach rho: values into out, then regrets and the
 * strategy at nd (regret matching+). Every raise is visited: the other player's reach does not
 * change with u's action. */
static void NAME(walk_u)(NAME(Ctx) *cx, int32_t nd, const REAL *restrict rho, uint64_t rm,
                         REAL *restrict out, int depth) {
    if (NAME(frontier)(cx, nd, 1, rho, rm, out, depth)) return;
    NAME(S) *s = (NAME(S) *)cx->s;
    const Tree *t = s->t;
    int u = cx->u, HPu = s->HP[u], Hu = t->H[u];
    Node *node = &t->nd[u][nd];
    int top = node->top, k = node->k, dl = top >= 0;
    int32_t e0 = node->e0, c0 = node->c0;
    cx->visited++;
    REAL *restrict vals = cx->scratch + s->per_depth * (size_t)depth; /* k rows, term, norm */
    /* What this node and its children will read first: its regrets and strategy for dudo,
     * the children's strategy and average for dudo, their nodes, and their raises' masks. */
    {
        int q = 1 - u;
        NAME(fetch)(R_OF(s, u, s->N[u], nd), 2 * (size_t)HPu * sizeof(REAL), 1);
        for (int i = 0; i < k; i++)
            NAME(fetch)(R_OF(s, u, s->E[u], e0 + i), 2 * (size_t)HPu * sizeof(REAL), 1);
        NAME(fetch)(&t->nd[q][c0], (size_t)k * sizeof(Node), 0);
        for (int i = 0; i < k; i++) NAME(challenge_rows)(s, q, c0 + i, rm);
        NAME(fetch)(s->hm[q] + node->ge0, (size_t)node->gk * sizeof(uint64_t), 0);
    }
    /* The challenge's values first (from tables already in cache), while the rows asked for
     * above arrive. */
    REAL *restrict term = vals + (size_t)k * HPu;
    REAL *restrict norm = term + HPu;
    if (dl && cx->mode != WALK_COLLECT) NAME(terminal)(s, u, u, top, rho, rm, term);
    for (int i = 0; i < k; i++)
        NAME(walk_q)(cx, c0 + i, rho, rm, vals + (size_t)i * HPu, depth + 1);
    if (cx->mode == WALK_COLLECT) return;
    unsigned char *base = s->E[u] + (size_t)e0 * s->rec[u];
    size_t stride = s->rec[u] / sizeof(REAL);
    REAL *restrict Rd = R_OF(s, u, s->N[u], nd);
    REAL *restrict Sd = Rd + HPu;
    if (dl) {
        for (int x = 0; x < HPu; x++) out[x] = Sd[x] * term[x];
    } else {
        for (int x = 0; x < HPu; x++) out[x] = 0;
    }
    for (int i = 0; i < k; i++) {
        const REAL *restrict v = vals + (size_t)i * HPu;
        const REAL *restrict sr = (const REAL *)base + i * stride + HPu;
        for (int x = 0; x < HPu; x++) out[x] += sr[x] * v[x];
    }
    /* Regrets, and the sum of their positive parts. CFR+ clips them at zero; discounted CFR
     * keeps them signed and first applies the discounts of the iterations since the node was
     * last updated (positive regrets by s^a / (s^a + 1), negative ones by s^b / (s^b + 1) for
     * each such s), in which it gained nothing, as the other player did not reach it. */
    REAL fp = 1, fn = 1;
    if (s->discounted) {
        NAME(pending)(s, node->stamp, cx->iteration, &fp, &fn);
        node->stamp = (int32_t)cx->iteration;
    }
    int clip = !s->discounted;
    for (int x = 0; x < HPu; x++) norm[x] = 0;
    if (dl) NAME(regret_row)(Rd, term, out, norm, HPu, fp, fn, clip);
    for (int i = 0; i < k; i++)
        NAME(regret_row)((REAL *)base + i * stride, vals + (size_t)i * HPu, out, norm, HPu, fp,
                         fn, clip);
    /* The new strategy: regrets over their sum, uniform where they are all zero (as
     * Kernel.normalize: a sum below the smallest normal number counts as zero). */
    REAL uni = (REAL)(1.0 / (double)(k + dl));
    REAL *restrict inv = term; /* the challenge's values are no longer needed */
    for (int x = 0; x < HPu; x++) inv[x] = norm[x] > REAL_TINY ? (REAL)1 / norm[x] : (REAL)0;
    uint32_t mask = 0;
    for (int i = 0; i < k; i++) {
        const REAL *restrict rr = (const REAL *)base + i * stride;
        REAL *restrict sr = (REAL *)base + i * stride + HPu;
        for (int x = 0; x < HPu; x++) sr[x] = inv[x] > 0 ? (rr[x] > 0 ? rr[x] : 0) * inv[x] : uni;
        uint64_t m = NAME(hands_taking)(sr, s->thr[u], Hu);
        s->hm[u][e0 + i] = m;
        if (m) mask |= 1u << i;
    }
    node->act = mask;
    if (dl) {
        for (int x = 0; x < HPu; x++) Sd[x] = inv[x] > 0 ? (Rd[x] > 0 ? Rd[x] : 0) * inv[x] : uni;
        node->dhm = NAME(hands_taking)(Sd, NULL, Hu);
    }
}

/* The other player q to act at node nd with reach rho (positive only for the hands in rm):
 * u's values into out; q's average is accumulated with the walk's weight x its reach. Only the
 * raises some reached hand of q takes are followed, and of q's rows only the entries of the
 * hands that reach are read (the others have reach zero there; most nodes are reached with a
 * few of q's hands). */
static void NAME(walk_q)(NAME(Ctx) *cx, int32_t nd, const REAL *restrict rho, uint64_t rm,
                         REAL *restrict out, int depth) {
    if (NAME(frontier)(cx, nd, 0, rho, rm, out, depth)) return;
    NAME(S) *s = (NAME(S) *)cx->s;
    const Tree *t = s->t;
    int u = cx->u, q = 1 - u, HPu = s->HP[u];
    const Node *node = &t->nd[q][nd];
    int top = node->top;
    int32_t e0 = node->e0, c0 = node->c0;
    int accumulate = cx->mode != WALK_COLLECT && cx->weight != 0;
    double weight = cx->weight;
    const uint64_t *hm = s->hm[q] + e0;
    const REAL floor = s->floor;
    cx->visited++;
    REAL *restrict rho2 = cx->scratch + s->per_depth * (size_t)depth;
    REAL *restrict tmp = rho2 + s->HP[q];
    /* The raises some reached hand takes; their rows are fetched ahead of use. */
    uint32_t live = 0;
    for (uint32_t mask = node->act; mask; mask &= mask - 1) {
        int i = __builtin_ctz(mask);
        uint64_t m = hm[i] & rm;
        if (m) {
            live |= 1u << i;
            NAME(fetch_hands)(S_OF(s, q, s->E[q], e0 + i), sizeof(REAL), m, 0);
            NAME(fetch_hands)(A_OF(s, q, s->E[q], e0 + i), sizeof(double), m, 1);
            __builtin_prefetch(&t->nd[u][c0 + i]);
            NAME(fetch)(R_OF(s, u, s->N[u], c0 + i), 2 * (size_t)HPu * sizeof(REAL), 1);
        }
    }
    for (int x = 0; x < HPu; x++) out[x] = 0;
    uint64_t dm = top >= 0 ? node->dhm & rm : 0; /* the reached hands that challenge */
    if (dm) {
        const REAL *restrict sd = S_OF(s, q, s->N[q], nd);
        for (uint64_t m = dm; m; m &= m - 1) {
            int y = __builtin_ctzll(m);
            rho2[y] = rho[y] * sd[y];
        }
        if (accumulate) {
            double *restrict ad = A_OF(s, q, s->N[q], nd);
            for (uint64_t m = dm; m; m &= m - 1) {
                int y = __builtin_ctzll(m);
                ad[y] += weight * (double)rho2[y];
            }
        }
        NAME(terminal)(s, u, q, top, rho2, dm, out);
    }
    while (live) {
        int i = __builtin_ctz(live);
        live &= live - 1;
        int32_t e = e0 + i;
        const REAL *restrict sr = S_OF(s, q, s->E[q], e);
        /* The hands that reach the raise's node, above the floor. */
        uint64_t nz = 0;
        for (uint64_t m = hm[i] & rm; m; m &= m - 1) {
            int y = __builtin_ctzll(m);
            REAL r2 = rho[y] * sr[y];
            r2 = r2 < floor ? 0 : r2;
            rho2[y] = r2;
            nz |= (uint64_t)(r2 > 0) << y;
        }
        if (!nz) continue; /* below the floor, or underflowed */
        if (accumulate) {
            double *restrict ar = A_OF(s, q, s->E[q], e);
            for (uint64_t m = nz; m; m &= m - 1) {
                int y = __builtin_ctzll(m);
                ar[y] += weight * (double)rho2[y];
            }
        }
        NAME(walk_u)(cx, c0 + i, rho2, nz, tmp, depth + 1);
        for (int x = 0; x < HPu; x++) out[x] += tmp[x];
    }
}

static void NAME(walk_root)(NAME(Ctx) *cx, REAL *rho, REAL *out) {
    int H = cx->s->t->H[1 - cx->u];
    uint64_t rm = H == 64 ? ~(uint64_t)0 : (((uint64_t)1 << H) - 1);
    if (cx->u == 0)
        NAME(walk_u)(cx, 0, rho, rm, out, 0);
    else
        NAME(walk_q)(cx, 0, rho, rm, out, 0);
}

/* One update of player u (CFR+): regrets and strategy of u where the other player's reach is
 * positive, and the other player's average with weight `weight`. With several threads the
 * walk is split at a frontier depth: a collect walk lists the live nodes there, the threads
 * walk their subtrees (disjoint), and a finish walk does the levels above with their values.
 * The result does not depend on the number of threads. Returns 0 when memory ran out (the
 * state is then as before the update). */
static int NAME(update)(NAME(S) *s, int u, double weight) {
    const Tree *t = s->t;
    int q = 1 - u;
    REAL *root = s->scratch + s->per_depth * (size_t)(t->n + 2);
    REAL *out = root + s->HP[q];
    for (int y = 0; y < s->HP[q]; y++) root[y] = s->w[q][y];
    NAME(Ctx) cx = {s, u, weight, s->iterations + 1, WALK_FULL, FRONTIER_DEPTH, 0, 0, s->scratch};
    if (s->threads <= 1 || t->n <= FRONTIER_DEPTH + 2) {
        NAME(walk_root)(&cx, root, out);
        s->visited[u] = cx.visited;
        return 1;
    }
    s->nitems = 0;
    cx.mode = WALK_COLLECT;
    NAME(walk_root)(&cx, root, out);
    if (cx.mode == WALK_FAILED) return 0;
    long visited = cx.visited;
    long nitems = s->nitems;
    int hmax = s->HP[0] > s->HP[1] ? s->HP[0] : s->HP[1];
#pragma omp parallel num_threads(s->threads) reduction(+ : visited)
    {
        int tid = 0;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        NAME(Ctx) tc = {s, u, weight, s->iterations + 1, WALK_FULL, FRONTIER_DEPTH, 0, 0,
                        s->scratch + s->per_thread * (size_t)tid};
#pragma omp for schedule(dynamic, 1)
        for (long i = 0; i < nitems; i++) {
            const REAL *rho = s->frho + (size_t)i * hmax;
            REAL *res = s->fout + (size_t)i * hmax;
            uint64_t rm = s->items[i].rm;
            if (s->items[i].actor_is_u)
                NAME(walk_u)(&tc, s->items[i].node, rho, rm, res, FRONTIER_DEPTH);
            else
                NAME(walk_q)(&tc, s->items[i].node, rho, rm, res, FRONTIER_DEPTH);
        }
        visited += tc.visited;
    }
    cx.mode = WALK_FINISH;
    cx.cursor = 0;
    cx.visited = 0;
    NAME(walk_root)(&cx, root, out);
    s->visited[u] = visited;
    return 1;
}

/* The discount tables of DCFR up to iteration `upto`; 0 when memory runs out. */
static int NAME(discounts)(NAME(S) *s, long upto) {
    if (upto < s->logcap) return 1;
    long cap = s->logcap ? s->logcap : 1024;
    while (cap <= upto) cap *= 2;
    double *a = realloc(s->logpa, (size_t)cap * sizeof(double));
    if (a) s->logpa = a;
    double *b = realloc(s->logpb, (size_t)cap * sizeof(double));
    if (b) s->logpb = b;
    double *sa = realloc(s->stepa, (size_t)cap * sizeof(double));
    if (sa) s->stepa = sa;
    double *sb = realloc(s->stepb, (size_t)cap * sizeof(double));
    if (sb) s->stepb = sb;
    if (!a || !b || !sa || !sb) return 0;
    for (long t = s->logcap; t < cap; t++) {
        if (t == 0) {
            a[0] = b[0] = 0;
            sa[0] = sb[0] = 1;
            continue;
        }
        double ta = pow((double)t, s->alpha), tb = pow((double)t, s->beta);
        sa[t] = ta / (ta + 1.0);
        sb[t] = tb / (tb + 1.0);
        a[t] = a[t - 1] + log(sa[t]);
        b[t] = b[t - 1] + log(sb[t]);
    }
    s->logcap = cap;
    return 1;
}

/* Regret updates: 0 for CFR+ (regret matching+), 1 for discounted CFR with the given alpha and
 * beta (positive regrets discounted by t^alpha / (t^alpha + 1) each iteration, negative ones
 * by t^beta / (t^beta + 1); lazily, when a node is next visited). Before any iteration. */
void NAME(cfr_set_discount)(void *solver, int discounted, double alpha, double beta) {
    NAME(S) *s = solver;
    s->discounted = discounted;
    s->alpha = alpha;
    s->beta = beta;
    s->logcap = 0;
}

/* `count` iterations (player 0, then player 1 against its new strategy). The averages weigh
 * iteration t by t^gamma (1: linear, 2: quadratic). Returns the iterations done in all, -2
 * while a window of the average stands (cfr_window), or -1 when memory ran out. */
long NAME(cfr_iterate)(void *solver, int count, double gamma) {
    NAME(S) *s = solver;
    if (s->windowed) return -2;
    if (s->discounted && !NAME(discounts)(s, s->iterations + count + 1)) return -1;
    for (int i = 0; i < count; i++) {
        double tt = (double)(s->iterations + 1);
        double weight = gamma == 1.0 ? tt : gamma == 2.0 ? tt * tt : pow(tt, gamma);
        if (!NAME(update)(s, 0, weight) || !NAME(update)(s, 1, weight)) return -1;
        s->iterations++;
    }
    return s->iterations;
}

void NAME(cfr_visited)(const void *solver, long *out) {
    const NAME(S) *s = solver;
    out[0] = s->visited[0];
    out[1] = s->visited[1];
}

/* -- best responses (double) against the other player's average strategy ----------------- */

static void NAME(terminal_d)(const NAME(S) *s, int u, int caller, int r,
                             const double *restrict rho, double *restrict out) {
    const Tree *t = s->t;
    int q = 1 - u, HPu = s->HP[u], Hq = t->H[q], C = t->D[q] + 1;
    double sum[MAX_COUNT];
    for (int c = 0; c < C; c++) sum[c] = 0;
    const uint8_t *cnt = t->cnt[q] + (size_t)r * Hq;
    for (int y = 0; y < Hq; y++) sum[cnt[y]] += rho[y];
    const double *restrict pay = s->payd[u] + ((size_t)(caller * t->n + r) * C) * HPu;
    for (int x = 0; x < HPu; x++) out[x] = sum[0] * pay[x];
    for (int c = 1; c < C; c++)
        for (int x = 0; x < HPu; x++) out[x] += sum[c] * pay[(size_t)c * HPu + x];
}

static void NAME(br_q)(const NAME(S) *s, double *sd, int u, int32_t nd,
                       const double *restrict rho, double *restrict out, int depth);

static void NAME(br_u)(const NAME(S) *s, double *sd, int u, int32_t nd,
                       const double *restrict rho, double *restrict out, int depth) {
    const Tree *t = s->t;
    int HPu = s->HP[u];
    int top = t->nd[u][nd].top, k = t->nd[u][nd].k;
    int32_t e0 = t->nd[u][nd].e0;
    double *restrict tmp = sd + s->per_depth * (size_t)depth;
    if (top >= 0) {
        NAME(terminal_d)(s, u, u, top, rho, out);
    } else {
        for (int x = 0; x < HPu; x++) out[x] = -INFINITY;
    }
    for (int i = 0; i < k; i++) {
        NAME(br_q)(s, sd, u, t->nd[u][nd].c0 + i, rho, tmp, depth + 1);
        for (int x = 0; x < HPu; x++) out[x] = tmp[x] > out[x] ? tmp[x] : out[x];
    }
}

static void NAME(br_q)(const NAME(S) *s, double *sd, int u, int32_t nd,
                       const double *restrict rho, double *restrict out, int depth) {
    const Tree *t = s->t;
    int q = 1 - u, HPu = s->HP[u], HPq = s->HP[q];
    int top = t->nd[q][nd].top, k = t->nd[q][nd].k, dl = top >= 0;
    int32_t e0 = t->nd[q][nd].e0;
    double *restrict inv = sd + s->per_depth * (size_t)depth;
    double *restrict rho2 = inv + HPq;
    double *restrict tmp = rho2 + HPq;
    const double *restrict ad = A_OF(s, q, s->N[q], nd);
    double uni = 1.0 / (double)(k + dl);
    for (int y = 0; y < HPq; y++) inv[y] = dl ? ad[y] : 0.0;
    for (int i = 0; i < k; i++) {
        const double *restrict a = A_OF(s, q, s->E[q], e0 + i);
        for (int y = 0; y < HPq; y++) inv[y] += a[y];
    }
    /* As Kernel.normalize: no weight (below the smallest normal double) means uniform. */
    for (int y = 0; y < HPq; y++) inv[y] = inv[y] > 2.2250738585072014e-308 ? 1.0 / inv[y] : -1.0;
    for (int x = 0; x < HPu; x++) out[x] = 0;
    if (dl) {
        int pos = 0;
        for (int y = 0; y < HPq; y++) {
            double p = inv[y] > 0 ? ad[y] * inv[y] : uni;
            rho2[y] = rho[y] * p;
            pos |= rho2[y] > 0;
        }
        if (pos) NAME(terminal_d)(s, u, q, top, rho2, out);
    }
    for (int i = 0; i < k; i++) {
        const double *restrict a = A_OF(s, q, s->E[q], e0 + i);
        int pos = 0;
        for (int y = 0; y < HPq; y++) {
            double p = inv[y] > 0 ? a[y] * inv[y] : uni;
            rho2[y] = rho[y] * p;
            pos |= rho2[y] > 0;
        }
        if (!pos) continue;
        NAME(br_u)(s, sd, u, t->nd[q][nd].c0 + i, rho2, tmp, depth + 1);
        for (int x = 0; x < HPu; x++) out[x] += tmp[x];
    }
}

/* u's best-response value against the other player's average strategy (for u's payoffs, as
 * Kernel.best_response: u's chance weights times its values at the root). */
double NAME(cfr_best_response)(void *solver, int u) {
    NAME(S) *s = solver;
    const Tree *t = s->t;
    int q = 1 - u;
    double *sd = s->scratchd + s->per_thread * (size_t)u;
    double *root = sd + s->per_depth * (size_t)(t->n + 2);
    double *out = root + s->HP[q];
    for (int y = 0; y < s->HP[q]; y++) root[y] = s->wd[q][y];
    if (u == 0)
        NAME(br_u)(s, sd, u, 0, root, out, 0);
    else
        NAME(br_q)(s, sd, u, 0, root, out, 0);
    double v = 0;
    for (int x = 0; x < t->H[u]; x++) v += s->wd[u][x] * out[x];
    return v;
}

/* Both best responses (out[0]: the opener's, out[1]: the other's), on two threads if the
 * solver has them (the walks only read). */
void NAME(cfr_best_responses)(void *solver, double *out) {
    NAME(S) *s = solver;
#pragma omp parallel for num_threads(s->threads > 1 ? 2 : 1) schedule(static, 1)
    for (int u = 0; u < 2; u++) out[u] = NAME(cfr_best_response)(s, u);
}

/* -- moving arrays to and from the Python layout (rows x hands, doubles) ------------------ */

static void *NAME(field)(const NAME(S) *s, int p, int edge, int which, int32_t i) {
    if (which == 3)
        return s->snap[p] + ((size_t)(edge ? s->t->nodes[p] : 0) + (size_t)i) * s->HP[p];
    unsigned char *base = edge ? s->E[p] : s->N[p];
    if (which == 0) return R_OF(s, p, base, i);
    if (which == 1) return S_OF(s, p, base, i);
    return A_OF(s, p, base, i);
}

/* Rows of player p's average: its nodes, then its edges (the layout of snap, marks, backup). */
static inline size_t NAME(avg_rows)(const NAME(S) *s, int p) {
    return (size_t)s->t->nodes[p] + (size_t)s->t->edges[p];
}

/* The average's sums of player p's row i (in that order). */
static inline double *NAME(avg_row)(NAME(S) *s, int p, size_t i) {
    size_t nodes = (size_t)s->t->nodes[p];
    return i < nodes ? A_OF(s, p, s->N[p], i) : A_OF(s, p, s->E[p], i - nodes);
}

/* Copies player p's average (its unnormalized sums) aside, to be exported later as `which` 3:
 * what solve_round keeps of the best average seen. Returns 0 when memory runs out. */
int NAME(cfr_snapshot)(void *solver, int p) {
    NAME(S) *s = solver;
    size_t HP = (size_t)s->HP[p], rows = NAME(avg_rows)(s, p);
    if (!s->snap[p]) {
        s->snap[p] = malloc(rows * HP * sizeof(double));
        if (!s->snap[p]) return 0;
    }
    double *o = s->snap[p];
    for (size_t i = 0; i < rows; i++, o += HP)
        memcpy(o, NAME(avg_row)(s, p, i), HP * sizeof(double));
    return 1;
}

/* Copies both players' averages (their sums) to mark `slot` (in float: a window takes a
 * fraction of the sums of much earlier iterations away, whose rounding then hardly counts).
 * Returns 0 when memory runs out or the slot does not exist. */
int NAME(cfr_mark)(void *solver, int slot) {
    NAME(S) *s = solver;
    if (slot < 0 || slot >= MAX_MARKS) return 0;
    for (int p = 0; p < 2; p++) {
        size_t HP = (size_t)s->HP[p], rows = NAME(avg_rows)(s, p);
        if (!s->marks[slot][p]) {
            s->marks[slot][p] = malloc(rows * HP * sizeof(float));
            if (!s->marks[slot][p]) return 0;
        }
        float *o = s->marks[slot][p];
        for (size_t i = 0; i < rows; i++, o += HP) {
            const double *a = NAME(avg_row)(s, p, i);
            for (size_t x = 0; x < HP; x++) o[x] = (float)a[x];
        }
    }
    return 1;
}

/* With lam > 0: the averages' sums become, until cfr_window(solver, -1, 0), their window since
 * mark `slot`: max(sums - lam x the sums then, 0), lam in (0, 1] (the sums of the iterations
 * since, and lam less of those before); what the best responses, cfr_snapshot and cfr_export
 * see meanwhile. With lam 0 (slot ignored): the sums as they were, exactly (they were copied
 * aside). No iteration may run while a window stands. Returns 0 when memory runs out, the
 * slot was never marked, or the call does not fit the state (window over window, or none to
 * end); the sums are then as they were. */
int NAME(cfr_window)(void *solver, int slot, double lam) {
    NAME(S) *s = solver;
    if (lam == 0) {
        if (!s->windowed) return 0;
        for (int p = 0; p < 2; p++) {
            size_t HP = (size_t)s->HP[p], rows = NAME(avg_rows)(s, p);
            const double *b = s->backup[p];
            for (size_t i = 0; i < rows; i++, b += HP)
                memcpy(NAME(avg_row)(s, p, i), b, HP * sizeof(double));
        }
        s->windowed = 0;
        return 1;
    }
    if (s->windowed || slot < 0 || slot >= MAX_MARKS || !s->marks[slot][0] || lam < 0 || lam > 1)
        return 0;
    for (int p = 0; p < 2; p++) { /* both backups first: a failure changes nothing */
        if (!s->backup[p]) s->backup[p] = malloc(NAME(avg_rows)(s, p) * s->HP[p] * sizeof(double));
        if (!s->backup[p]) return 0;
    }
    for (int p = 0; p < 2; p++) {
        size_t HP = (size_t)s->HP[p], rows = NAME(avg_rows)(s, p);
        double *b = s->backup[p];
        const float *m = s->marks[slot][p];
        for (size_t i = 0; i < rows; i++, b += HP, m += HP) {
            double *a = NAME(avg_row)(s, p, i);
            memcpy(b, a, HP * sizeof(double));
            for (size_t x = 0; x < HP; x++) {
                double w = a[x] - lam * (double)m[x];
                a[x] = w > 0 ? w : 0;
            }
        }
    }
    s->windowed = 1;
    return 1;
}

/* which: 0 regrets, 1 current strategy, 2 average, 3 the average as of the last cfr_snapshot
 * (which must have been taken). Rows of unreachable histories are left as
 * they are in raises_out / dudo_out. DCFR's regrets are given as of the last iteration (the
 * discounts not yet applied to a node are applied here). */
void NAME(cfr_export)(void *solver, int p, int which, double *raises_out, double *dudo_out) {
    NAME(S) *s = solver;
    const Tree *t = s->t;
    int H = t->H[p];
    if (s->discounted && which == 0 && !NAME(discounts)(s, s->iterations + 1)) return;
    for (int32_t nd = 0; nd < t->nodes[p]; nd++) {
        REAL fp = 1, fn = 1;
        if (s->discounted && which == 0)
            NAME(pending)(s, t->nd[p][nd].stamp, s->iterations, &fp, &fn);
        for (int32_t i = -1; i < t->nd[p][nd].k; i++) {
            int edge = i >= 0;
            int32_t id = edge ? t->nd[p][nd].e0 + i : nd;
            double *o = edge ? raises_out + (size_t)t->erow[p][id] * H
                             : dudo_out + (size_t)t->row[p][nd] * H;
            const void *f = NAME(field)(s, p, edge, which, id);
            for (int x = 0; x < H; x++) {
                double v = which >= 2 ? ((const double *)f)[x] : (double)((const REAL *)f)[x];
                o[x] = v * (v > 0 ? fp : fn);
            }
        }
    }
}

/* The inverse of cfr_export (for tests: start from a given state), then the masks. */
void NAME(cfr_import)(void *solver, int p, int which, const double *raises_in,
                      const double *dudo_in) {
    NAME(S) *s = solver;
    const Tree *t = s->t;
    int H = t->H[p];
    for (int edge = 0; edge < 2; edge++) {
        int32_t count = edge ? t->edges[p] : t->nodes[p];
        for (int32_t i = 0; i < count; i++) {
            const double *in = edge ? raises_in + (size_t)t->erow[p][i] * H
                                    : dudo_in + (size_t)t->row[p][i] * H;
            void *f = NAME(field)(s, p, edge, which, i);
            for (int x = 0; x < H; x++) {
                if (which == 2)
                    ((double *)f)[x] = in[x];
                else
                    ((REAL *)f)[x] = (REAL)in[x];
            }
        }
    }
    for (int32_t nd = 0; nd < t->nodes[p]; nd++) {
        NAME(masks)(s, p, nd);
        t->nd[p][nd].stamp = (int32_t)s->iterations;
    }
}

/* Raises that bring the other player's reach (chance included) below `floor` for every hand
 * are walked as if it were zero: 0 (the default) is the exact pruned update. */
void NAME(cfr_set_floor)(void *solver, double floor) {
    NAME(S) *s = solver;
    s->floor = (REAL)floor;
    for (int p = 0; p < 2; p++) {
        for (int x = 0; x < s->t->H[p]; x++)
            s->thr[p][x] = floor > 0 ? (REAL)(0.999 * floor / s->wd[p][x]) : (REAL)0;
        for (int32_t nd = 0; nd < s->t->nodes[p]; nd++) NAME(masks)(s, p, nd);
    }
}

/* Sets the iteration count (before cfr_import, which stamps DCFR's regrets with it). */
void NAME(cfr_set_iterations)(void *solver, long iterations) {
    ((NAME(S) *)solver)->iterations = iterations;
}
