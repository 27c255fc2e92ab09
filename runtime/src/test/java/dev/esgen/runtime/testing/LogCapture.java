package dev.esgen.runtime.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

/**
 * What a logger and the loggers under it log during each test, down to a level, read through Logback:
 * {@code @RegisterExtension final LogCapture logs = new LogCapture("dev.esgen", Level.DEBUG);}. The
 * logger's level is set back afterwards.
 */
public final class LogCapture implements BeforeEachCallback, AfterEachCallback {

  private final String loggerName;
  private final Level level;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private Logger logger;

  public LogCapture(String loggerName, Level level) {
    this.loggerName = loggerName;
    this.level = level;
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    logger = (Logger) LoggerFactory.getLogger(loggerName);
    logger.setLevel(level);
    appender.start();
    logger.addAppender(appender);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    logger.detachAppender(appender);
    logger.setLevel(null);
    appender.stop();
  }

  /** Everything logged since the test started or {@link #clear()} was called, in order. */
  public List<ILoggingEvent> events() {
    return appender.list;
  }

  /** Forgets what was logged so far, e.g. during a test's set-up. */
  public void clear() {
    appender.list.clear();
  }
}
