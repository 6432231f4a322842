package org.loadlab.node.backend;

/**
 * How often a node fails the requests it takes, and how: a node with error rate p answers
 * each request with an error (HTTP 500) with probability p, drawn from its own random stream.
 * A <em>fast</em> failure answers at once without serving (a broken dependency, a crashed
 * handler: the node looks idle and fast to a load-reading balancer); otherwise the request is
 * served in full and then fails (it costs the node its service time).
 *
 * @param rate probability that a request fails, in [0, 1]
 * @param fast true: the error is answered at once; false: after service
 *     <p>Source: issue 14 ("failures that look fast"); seed 003 (HTTP 500 above a CPU threshold).
 */
public record ErrorModel(double rate, boolean fast) {
    /** No errors. */
    public static final ErrorModel NONE = new ErrorModel(0, true);

    /** Validates. @throws IllegalArgumentException if the rate is not in [0, 1] */
    public ErrorModel {
        if (!(rate >= 0 && rate <= 1)) {
            throw new IllegalArgumentException("nodes.errors.rate = " + rate + ": allowed a probability in [0, 1]");
        }
    }
}
