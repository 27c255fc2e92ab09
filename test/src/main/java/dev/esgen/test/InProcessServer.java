package dev.esgen.test;

import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * DynamoDB Local's HTTP server running in this JVM, made through its command-line entry class as
 * {@code java -jar DynamoDBLocal.jar} would, so that options mean what DynamoDB Local's documentation
 * says, and listening on loopback only ({@link LoopbackServer}). Reached by reflection because DynamoDB
 * Local is the caller's dependency, found at run time.
 */
final class InProcessServer implements RunningServer {

  private final Object server;
  private final Method stop;
  private volatile boolean running = true;

  private InProcessServer(Object server, Method stop) {
    this.server = server;
    this.stop = stop;
  }

  /** @throws IllegalStateException when the server does not start, for example because the port was taken */
  static InProcessServer start(DynamoDbLocalOnClasspath found, int port) {
    Object server;
    Method stop;
    // DynamoDB Local prints its configuration to standard output as it starts; a test run should show test
    // results, so what the starting thread prints meanwhile is dropped (the port and version are in
    // toString()).
    PrintStream out = System.out;
    StartingThreadDropped quiet = new StartingThreadDropped(out);
    System.setOut(new PrintStream(quiet, true));
    try {
      server = LoopbackServer.create(found.serverRunner(), port);
      stop = server.getClass().getMethod("stop");
      server.getClass().getMethod("start").invoke(server);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException("DynamoDB Local " + found.version() + " did not start in this JVM on port "
          + port + ": " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("DynamoDB Local " + found.version() + " lacks the 3.x entry points"
          + " esgen-test starts it with (" + e + "): use software.amazon.dynamodb:DynamoDBLocal 3.x", e);
    } finally {
      quiet.started();
      System.setOut(out);
    }
    return new InProcessServer(server, stop);
  }

  /**
   * Standard output while a server starts: drops what the starting thread writes until the start is
   * over and passes everything else on. A stream taken from {@code System.out} meanwhile keeps writing
   * afterwards: Log4j 2, which DynamoDB Local brings, sets its console appender up on first use, often
   * during the start, and keeps that stream for the life of the JVM.
   */
  private static final class StartingThreadDropped extends OutputStream {
    private final PrintStream out;
    private final Thread starting = Thread.currentThread();
    private volatile boolean started;

    StartingThreadDropped(PrintStream out) {
      this.out = out;
    }

    void started() {
      started = true;
    }

    private boolean dropped() {
      return !started && Thread.currentThread() == starting;
    }

    @Override
    public void write(int b) {
      if (!dropped()) {
        out.write(b);
      }
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
      if (!dropped()) {
        out.write(bytes, offset, length);
      }
    }

    @Override
    public void flush() {
      out.flush();
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  @Override
  public synchronized void stop() {
    if (!running) {
      return;
    }
    running = false;
    try {
      stop.invoke(server);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException("DynamoDB Local did not stop: " + e.getCause(), e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("DynamoDB Local did not stop", e);
    }
  }
}
