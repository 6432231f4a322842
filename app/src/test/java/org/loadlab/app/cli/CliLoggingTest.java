package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The logging set up in code ({@link CliLogging}) is what logback.xml said: WARN and above to
 * stderr as {@code LEVEL logger: message}, the campaign's phase timings at
 * {@code -Dloadlab.campaign.log}; a named logback configuration file is left to logback.
 */
class CliLoggingTest {
    @AfterEach
    void clearProperties() {
        System.clearProperty(CliLogging.CAMPAIGN_LOG_PROPERTY);
        System.clearProperty("logback.configurationFile");
    }

    private static LoggerContext configured() {
        LoggerContext context = new LoggerContext();
        CliLogging logging = new CliLogging();
        logging.setContext(context);
        assertEquals(Configurator.ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY, logging.configure(context));
        return context;
    }

    @Test
    void warningsGoToStderrInTheFormerPattern() {
        LoggerContext context = configured();
        ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        assertEquals(Level.WARN, root.getLevel());
        ConsoleAppender<?> stderr = assertInstanceOf(ConsoleAppender.class, root.getAppender("STDERR"));
        assertEquals("System.err", stderr.getTarget());
        assertTrue(stderr.isStarted());
        PatternLayoutEncoder encoder = assertInstanceOf(PatternLayoutEncoder.class, stderr.getEncoder());
        ch.qos.logback.classic.Logger logger = context.getLogger("org.apache.pekko.persistence.jdbc.SomeClass");
        LoggingEvent event = new LoggingEvent(null, logger, Level.WARN, "disk {} full", null, new Object[] {"/tmp"});
        assertEquals("WARN  o.a.p.p.jdbc.SomeClass: disk /tmp full" + System.lineSeparator(),
                new String(encoder.encode(event), StandardCharsets.UTF_8));
        assertFalse(logger.isInfoEnabled());
        assertEquals(Level.WARN, context.getLogger(CliLogging.CAMPAIGN_LOGGER).getLevel());
    }

    @Test
    void thePhaseTimingsFollowTheProperty() {
        System.setProperty(CliLogging.CAMPAIGN_LOG_PROPERTY, "DEBUG");
        assertTrue(configured().getLogger(CliLogging.CAMPAIGN_LOGGER).isDebugEnabled());
        System.setProperty(CliLogging.CAMPAIGN_LOG_PROPERTY, "no-such-level");
        assertEquals(Level.DEBUG, CliLogging.campaignLevel(), "as logback's XML reads an unknown level");
    }

    @Test
    void aNamedConfigurationFileIsLeftToLogback() {
        System.setProperty("logback.configurationFile", "/tmp/elsewhere.xml");
        LoggerContext context = new LoggerContext();
        CliLogging logging = new CliLogging();
        logging.setContext(context);
        assertEquals(Configurator.ExecutionStatus.INVOKE_NEXT_IF_ANY, logging.configure(context));
        assertEquals(null, context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("STDERR"));
    }
}
