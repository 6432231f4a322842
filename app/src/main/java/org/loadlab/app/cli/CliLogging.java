package org.loadlab.app.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * LoadLab's logging setup, in code (logback's {@link Configurator} service, registered in
 * {@code META-INF/services}): libraries speak up on warnings only, to stderr, as
 * {@code LEVEL logger: message}; the campaign's phase timings (docs/performance.md,
 * "Campaigns") at the level {@code -Dloadlab.campaign.log} names (default WARN). This is what
 * the former {@code logback.xml} said, without parsing it: logback's XML configurator loads
 * a SAX parser and its model framework, about 400 classes, at every command's start.
 *
 * <p>With {@code -Dlogback.configurationFile=FILE} nothing is set here and logback reads
 * FILE as usual.
 */
public final class CliLogging extends ContextAwareBase implements Configurator {
    /** The pattern of every line: level padded to 5, the logger's name shortened to 24 characters, the message. */
    static final String PATTERN = "%-5level %logger{24}: %msg%n";
    /** The logger whose level {@value #CAMPAIGN_LOG_PROPERTY} sets. */
    static final String CAMPAIGN_LOGGER = "org.loadlab.shell.campaign.CampaignRunner";
    /** System property (or environment variable) with the campaign phase timings' level. */
    static final String CAMPAIGN_LOG_PROPERTY = "loadlab.campaign.log";

    /** Called by logback's service loader. */
    public CliLogging() {
    }

    /**
     * Sets up {@code context} unless a logback configuration file is named.
     *
     * @param context logback's context
     * @return {@code DO_NOT_INVOKE_NEXT_IF_ANY} when set up here, {@code INVOKE_NEXT_IF_ANY} to let logback read the named file
     */
    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setName("STDERR");
        stderr.setTarget("System.err");
        stderr.setEncoder(encoder);
        stderr.start();
        context.getLogger(CAMPAIGN_LOGGER).setLevel(campaignLevel());
        ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.WARN);
        root.addAppender(stderr);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /** The level {@value #CAMPAIGN_LOG_PROPERTY} names, as logback's XML read it (an unknown name is DEBUG). */
    static Level campaignLevel() {
        String level = System.getProperty(CAMPAIGN_LOG_PROPERTY);
        if (level == null) {
            level = System.getenv(CAMPAIGN_LOG_PROPERTY);
        }
        return level == null ? Level.WARN : Level.toLevel(level);
    }
}
