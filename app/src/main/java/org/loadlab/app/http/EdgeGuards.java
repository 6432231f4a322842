package org.loadlab.app.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.http.javadsl.server.ExceptionHandler;
import org.apache.pekko.http.javadsl.server.MethodRejection;
import org.apache.pekko.http.javadsl.server.Rejection;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * What every LoadLab HTTP edge (the cluster's {@link ControlApi}, seed 003's
 * {@link GatewayRoutes}) does with a request it cannot take, so that both answer alike: a body
 * over {@link #MAX_BODY_BYTES} gets 413, a rejection is said in words (never a Pekko class
 * name), an exception's message becomes a 500 problem, and query parameters a path does not
 * know get a 400 naming them. Every answer is {@code application/problem+json}.
 */
final class EdgeGuards extends AllDirectives {
    /**
     * Largest request body accepted, bytes (1 MiB): a scenario, policy or chaos body is a few
     * kB; a larger one gets 413 with a problem body naming the limit.
     */
    static final long MAX_BODY_BYTES = 1L << 20;

    private static final EdgeGuards DIRECTIVES = new EdgeGuards();

    private EdgeGuards() {
    }

    /** {@code inner} with request bodies limited to {@link #MAX_BODY_BYTES} (Pekko's {@code withSizeLimit}). */
    static Route withBodyLimit(Supplier<Route> inner) {
        return DIRECTIVES.withSizeLimit(MAX_BODY_BYTES, inner);
    }

    /** Exceptions as problems: a body over the limit is 413, anything else 500 with its message. */
    static ExceptionHandler exceptions() {
        return ExceptionHandler.newBuilder()
                .match(org.apache.pekko.http.scaladsl.model.EntityStreamSizeException.class, e -> tooLarge())
                .match(Exception.class, e -> DIRECTIVES.complete(ControlApi.problemResponse(500, "internal error",
                        e.getMessage() != null ? e.getMessage() : "the request could not be handled", null, null, null)))
                .build();
    }

    /** The 413 answer: the body's size when the request declared it, and the limit. */
    static Route tooLarge() {
        return DIRECTIVES.extractRequest(req -> DIRECTIVES.complete(ControlApi.problemResponse(413, "payload too large",
                "the request body"
                + req.entity().getContentLengthOption().stream().mapToObj(n -> " of " + n + " bytes").findFirst().orElse("")
                + " is larger than the " + MAX_BODY_BYTES + " bytes (1 MiB) this API accepts", "body",
                req.entity().getContentLengthOption().isPresent() ? req.entity().getContentLengthOption().getAsLong() : null,
                "at most " + MAX_BODY_BYTES + " bytes")));
    }

    /**
     * The 405 answer to a method the path does not take: a problem naming the method and the
     * allowed ones, and the {@code Allow} header listing them (RFC 9110 §15.5.6 requires it),
     * each once, in the order the routes declare them.
     *
     * @param rejections the method rejections of the path's routes (one per method it takes)
     */
    static Route methodNotAllowed(Iterable<MethodRejection> rejections) {
        List<String> allowed = new ArrayList<>();
        for (MethodRejection r : rejections) {
            if (!allowed.contains(r.supported().name())) {
                allowed.add(r.supported().name());
            }
        }
        return DIRECTIVES.extractRequest(req -> DIRECTIVES.complete(ControlApi.problemResponse(405, "method not allowed",
                req.method().name() + " " + req.getUri().path() + " is not supported; it takes " + String.join(", ", allowed),
                "method", req.method().name(), allowed).addHeader(RawHeader.create("Allow", String.join(", ", allowed)))));
    }

    /** The answer to rejections other than method and path: 413 for a body over the limit, else 400 in words. */
    static Route otherRejections(Iterable<Rejection> rejections) {
        if (tooLarge(rejections)) {
            return tooLarge();
        }
        List<String> words = new ArrayList<>();
        for (Rejection r : rejections) {
            String w = describe(r);
            if (!words.contains(w)) {
                words.add(w);
            }
        }
        return DIRECTIVES.complete(ControlApi.problemResponse(400, "bad request", String.join("; ", words), null, null, null));
    }

    /**
     * {@code inner} if every query parameter of the request is in {@code allowed} and given
     * once; else a 400 naming the first unknown one (a misspelt {@code ?stratgy=} would
     * otherwise be ignored) or the first one given twice (only its first value would be read).
     *
     * @param allowed the parameter names the path reads (empty: none)
     */
    static Route onlyParameters(Set<String> allowed, Supplier<Route> inner) {
        return DIRECTIVES.extractRequest(req -> {
            var query = req.getUri().query();
            for (var p : query.toList()) {
                String name = p.first();
                List<String> values = new ArrayList<>(); // in the request's order (Query.getAll reverses it)
                query.toList().forEach(q -> {
                    if (q.first().equals(name)) {
                        values.add(q.second());
                    }
                });
                if (allowed.contains(name) && values.size() > 1) {
                    return DIRECTIVES.complete(ControlApi.problemResponse(400, "bad request", "query parameter '" + name
                            + "' is given " + values.size() + " times (" + String.join(", ", values) + "); give it once",
                            name, values, "one value"));
                }
                if (!allowed.contains(name)) {
                    String path = req.getUri().path();
                    return DIRECTIVES.complete(ControlApi.problemResponse(400, "bad request", "unknown query parameter '"
                            + name + "' for " + path + (allowed.isEmpty() ? "; it takes none" : "; it takes "
                            + String.join(", ", new TreeSet<>(allowed))), name, p.second(), new TreeSet<>(allowed)));
                }
            }
            return inner.get();
        });
    }

    /** True if a rejection (or its cause) is a body over the size limit. */
    private static boolean tooLarge(Iterable<Rejection> rejections) {
        for (Rejection r : rejections) {
            if (r instanceof org.apache.pekko.http.scaladsl.server.MalformedRequestContentRejection m
                    && m.cause() instanceof org.apache.pekko.http.scaladsl.model.EntityStreamSizeException) {
                return true;
            }
        }
        return false;
    }

    /** What a rejection means, in words (never a Pekko class name). */
    static String describe(Rejection r) {
        if (r instanceof org.apache.pekko.http.scaladsl.server.MalformedRequestContentRejection m) {
            return "the request body could not be read: " + m.message();
        }
        if (r instanceof org.apache.pekko.http.scaladsl.server.UnsupportedRequestContentTypeRejection) {
            return "unsupported Content-Type; send application/json";
        }
        if (r instanceof org.apache.pekko.http.scaladsl.server.MissingQueryParamRejection q) {
            return "missing query parameter '" + q.parameterName() + "'";
        }
        if (r instanceof org.apache.pekko.http.scaladsl.server.MalformedQueryParamRejection q) {
            return "query parameter '" + q.parameterName() + "': " + q.errorMsg();
        }
        if (r instanceof org.apache.pekko.http.scaladsl.server.RequestEntityExpectedRejection$) {
            return "a request body is required (a JSON object)";
        }
        return "the request was refused (" + r.getClass().getSimpleName().replace("Rejection", "").replace("$", "") + ")";
    }

    /** The first field of the JSON object {@code o} not in {@code allowed}, or null (a body's fields are checked whole). */
    static String unknownField(com.fasterxml.jackson.databind.node.ObjectNode o, Set<String> allowed) {
        for (java.util.Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!allowed.contains(f)) {
                return f;
            }
        }
        return null;
    }
}
