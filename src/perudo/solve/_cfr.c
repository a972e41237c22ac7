/* The compiled CFR kernel of perudo.solve (see native.py and docs/solver.md).
 *
 * A heads-up round's public tree is built here from the legality tables the Python side takes
 * from the rules core (perudo.solve.game.RoundGame: openings, which rank may follow which for
 * each player, counts, payoffs); no rule is decided in this file. A node's raises are
 * consecutive edges and its children consecutive nodes, numbered as the tree is filled depth
 * first, so a walk through the tree reads every array forwards.
 *
 * The walk is CFR+ or discounted CFR with alternating updates, vectorized over hands and
 * pruned: when player u is updated, only histories the other player q reaches (chance
 * included) are visited, and at q's nodes only the raises some reaching hand takes (bit masks
 * of hands per raise, rebuilt whenever the strategy changes). q's average strategy is
 * accumulated on the same walk, with the reach it carries. The floating type of regrets and
 * strategies is float or double (_cfr_kernel.h is included once for each); averages and best
 * responses are always double.
 *
 * Only the C standard library and OpenMP are used; ctypes calls the functions below (no Python
 * API).
 */

#define _GNU_SOURCE
#include <math.h>
#include <sys/mman.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#define MAX_BIDS 30
#define MAX_COUNT 32
/* Hands of a player: a set of hands is one 64-bit mask. */
#define MAX_HANDS 64
/* Earlier averages a solver keeps for windows of its average (cfr_mark). */
#define MAX_MARKS 6

/* Hands are padded to a multiple of this (8 floats: one AVX register). */
#define LANES 8

/* Arrays of this size and more are aligned to (and asked to sit on) huge pages. */
#define HUGE_PAGE ((size_t)2 << 20)

/* The walks of one update: all in one go, or split at FRONTIER_DEPTH for several threads
 * (collect the live nodes there, walk their subtrees in parallel, finish the levels above). */
#define WALK_FULL 0
#define WALK_COLLECT 1
#define WALK_FINISH 2
#define WALK_FAILED 3
#define FRONTIER_DEPTH 3

/* A node of the tree with what a walk reads first there, in one place (32 bytes: two nodes to
 * a cache line, and a node's children side by side). */
typedef struct {
    int8_t top;    /* rank of the last bid (-1 at the root) */
    uint8_t k;     /* number of raises */
    uint16_t gk;   /* raises out of its children, in all */
    int32_t e0;    /* first of its raises (edge numbers) */
    int32_t c0;    /* the node its first raise leads to (of the other actor; the others follow) */
    int32_t ge0;   /* the first raise out of its first child (its children's raises follow) */
    uint32_t act;  /* solver: the raises its current strategy takes for some hand */
    int32_t stamp; /* solver (DCFR): the iteration its regrets were last updated */
    uint64_t dhm;  /* solver: the hands that call dudo there */
} Node;

typedef struct {
    int n;          /* bids in the round */
    int H[2];       /* hands of each player */
    int D[2];       /* dice of each player */
    int nodes[2];   /* nodes where each actor is to act */
    int edges[2];   /* raises out of each actor's nodes */
    Node *nd[2];       /* the nodes where each actor is to act */
    int32_t *row[2];   /* per node: its row in the Python layout (bit mask >> 1) */
    int32_t *erow[2];  /* per edge: its row in the Python layout */
    uint8_t *cnt[2];   /* cnt[p][r * H[p] + y]: dice of hand y counting for rank r's face */
    const uint8_t *opening;
    const uint8_t *ok[2];
} Tree;

static void tree_count(Tree *t, int p, int top) {
    const uint8_t *legal = top < 0 ? t->opening : t->ok[p] + (size_t)top * t->n;
    t->nodes[p]++;
    for (int r = top + 1; r < t->n; r++) {
        if (legal[r]) {
            t->edges[p]++;
            tree_count(t, 1 - p, r);
        }
    }
}

static int tree_raises(const Tree *t, int p, int top) {
    const uint8_t *legal = top < 0 ? t->opening : t->ok[p] + (size_t)top * t->n;
    int kk = 0;
    for (int r = top + 1; r < t->n; r++) kk += legal[r] != 0;
    return kk;
}

/* Fills node `id` of actor p (its number and its raises' numbers already given) and its
 * subtree. A node's children get consecutive node numbers of the other actor, and their raises
 * consecutive edge numbers, both given when the node is filled: a walk at a node reads its
 * raises' records, its children's challenge records and its children's raise masks as runs of
 * memory, and knows where the last are before it reads its children. */
static void tree_fill(Tree *t, int p, int32_t id, int top, int32_t row) {
    const uint8_t *legal = top < 0 ? t->opening : t->ok[p] + (size_t)top * t->n;
    Node *node = &t->nd[p][id];
    int kk = node->k;
    int32_t e0 = node->e0;
    int32_t c0 = t->nodes[1 - p];
    t->nodes[1 - p] += kk;
    node->top = (int8_t)top;
    node->c0 = c0;
    node->ge0 = t->edges[1 - p];
    t->row[p][id] = row;
    int i = 0, gk = 0;
    for (int r = top + 1; r < t->n; r++) {
        if (!legal[r]) continue;
        t->erow[p][e0 + i] = r == 0 ? 0 : (int32_t)((1u << (r - 1)) + (uint32_t)row);
        Node *child = &t->nd[1 - p][c0 + i];
        child->k = (uint8_t)tree_raises(t, 1 - p, r);
        child->e0 = t->edges[1 - p];
        t->edges[1 - p] += child->k;
        gk += child->k;
        i++;
    }
    node->gk = (uint16_t)gk;
    i = 0;
    for (int r = top + 1; r < t->n; r++) {
        if (!legal[r]) continue;
        tree_fill(t, 1 - p, c0 + i, r, t->erow[p][e0 + i]);
        i++;
    }
}

static void tree_free(Tree *t) {
    for (int p = 0; p < 2; p++) {
        free(t->nd[p]);
        free(t->row[p]);
        free(t->erow[p]);
        free(t->cnt[p]);
    }
    free(t);
}

/* Builds the tree. opening[r]: rank r may open; ok_p[r * n + r2]: player p may raise rank r to
 * r2 (r2 > r); cnt_p[r * H_p + y]: dice of p's hand y that count for rank r's face. */
static Tree *tree_new(int n, const uint8_t *opening, const uint8_t *ok0, const uint8_t *ok1,
                      int h0, int h1, int d0, int d1, const uint8_t *cnt0, const uint8_t *cnt1) {
    if (n < 1 || n > MAX_BIDS || d0 + 1 > MAX_COUNT || d1 + 1 > MAX_COUNT) return NULL;
    if (h0 < 1 || h1 < 1 || h0 > MAX_HANDS || h1 > MAX_HANDS) return NULL;
    Tree *t = calloc(1, sizeof(Tree));
    if (!t) return NULL;
    t->n = n;
    t->H[0] = h0;
    t->H[1] = h1;
    t->D[0] = d0;
    t->D[1] = d1;
    t->opening = opening;
    t->ok[0] = ok0;
    t->ok[1] = ok1;
    tree_count(t, 0, -1);
    int fail = 0;
    for (int p = 0; p < 2; p++) {
        size_t nn = (size_t)t->nodes[p] + 1, ne = (size_t)t->edges[p] + 1;
        t->nd[p] = calloc(nn, sizeof(Node));
        t->row[p] = malloc(nn * sizeof(int32_t));
        t->erow[p] = malloc(ne * sizeof(int32_t));
        t->cnt[p] = malloc((size_t)n * (size_t)t->H[p]);
        fail |= !t->nd[p] || !t->row[p] || !t->erow[p] || !t->cnt[p];
    }
    if (fail) {
        tree_free(t);
        return NULL;
    }
    memcpy(t->cnt[0], cnt0, (size_t)n * (size_t)h0);
    memcpy(t->cnt[1], cnt1, (size_t)n * (size_t)h1);
    t->nodes[0] = 1; /* the root */
    t->nodes[1] = t->edges[1] = 0;
    t->nd[0][0].k = (uint8_t)tree_raises(t, 0, -1);
    t->nd[0][0].e0 = 0;
    t->edges[0] = t->nd[0][0].k;
    tree_fill(t, 0, 0, -1, 0);
    t->opening = NULL;
    t->ok[0] = t->ok[1] = NULL;
    return t;
}

#define REAL double
#define NAME(x) x##_f64
#define REAL_TINY 2.2250738585072014e-308
#include "_cfr_kernel.h"
#undef REAL
#undef NAME
#undef REAL_TINY

#define REAL float
#define NAME(x) x##_f32
#define REAL_TINY 1.17549435e-38f
#include "_cfr_kernel.h"
#undef REAL
#undef NAME
#undef REAL_TINY

/* The size of the tree, for the Python side: nodes and edges of each actor. */
void cfr_tree_sizes(const void *solver, int is_float, int32_t *out) {
    const Tree *t = is_float ? tree_of_f32(solver) : tree_of_f64(solver);
    out[0] = t->nodes[0];
    out[1] = t->nodes[1];
    out[2] = t->edges[0];
    out[3] = t->edges[1];
}
