package dev.esgen.test;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Creates DynamoDB Local's server as its command line would, listening on the loopback address only.
 * DynamoDB Local has no option for the address: its Jetty server listens on every interface, where any
 * host of the network could read and write the test's tables without credentials. So the connectors of
 * the Jetty server it made are given the loopback host before it starts. Both ways of running it use
 * this: {@link InProcessServer} directly, {@link SeparateJvmServer} as the child JVM's main class.
 */
final class LoopbackServer {

  /** The address the server listens on, and the endpoint's host. */
  static final String HOST = "127.0.0.1";

  private LoopbackServer() {}

  /**
   * DynamoDB Local's server for {@code port}, not started, bound to {@link #HOST}.
   *
   * @throws InvocationTargetException when DynamoDB Local refuses the arguments
   * @throws ReflectiveOperationException when this DynamoDB Local lacks the 3.x entry points or its
   *     server is not the Jetty server they make
   */
  static Object create(Class<?> serverRunner, int port) throws ReflectiveOperationException {
    Method create = serverRunner.getMethod("createServerFromCommandLineArgs", String[].class);
    Object server = create.invoke(null, (Object) RunningServer.arguments(port).toArray(String[]::new));
    Object jetty = jettyServer(server);
    Object[] connectors = (Object[]) jetty.getClass().getMethod("getConnectors").invoke(jetty);
    if (connectors.length == 0) {
      throw new NoSuchFieldException("the Jetty server of " + server.getClass().getName() + " has no connector");
    }
    for (Object connector : connectors) {
      connector.getClass().getMethod("setHost", String.class).invoke(connector, HOST);
    }
    return server;
  }

  private static Object jettyServer(Object server) throws ReflectiveOperationException {
    for (Class<?> type = server.getClass(); type != null; type = type.getSuperclass()) {
      for (Field field : type.getDeclaredFields()) {
        if (field.getType().getName().equals("org.eclipse.jetty.server.Server")) {
          field.setAccessible(true);
          return field.get(server);
        }
      }
    }
    throw new NoSuchFieldException(server.getClass().getName() + " holds no org.eclipse.jetty.server.Server");
  }

  /**
   * The child JVM's entry point: runs the server until the JVM is stopped, or until the JVM that started
   * it is gone. Once the server listens it makes the file the second argument names, which tells
   * {@link SeparateJvmServer} the port is this server's; a start that fails (the port was taken
   * meanwhile) ends the JVM without it.
   *
   * @param arguments the port, then the file to make once the server listens
   */
  public static void main(String[] arguments) throws Exception {
    Path listening = Path.of(arguments[1]);
    Thread parentWatch =
        new Thread(() -> exitWhenParentIsGone(listening.getParent()), "dynamodb-local-parent-watch");
    parentWatch.setDaemon(true);
    parentWatch.start();
    Object server = create(Class.forName(DynamoDbLocalOnClasspath.SERVER_RUNNER), Integer.parseInt(arguments[0]));
    server.getClass().getMethod("start").invoke(server);
    Files.createFile(listening);
    server.getClass().getMethod("join").invoke(server);
  }

  /**
   * Ends this JVM once the JVM that started it is gone, and deletes the working directory that JVM made
   * for it. That JVM does both when it exits, from a shutdown hook, but one killed outright (kill -9, the
   * kernel's out-of-memory killer, Surefire's {@code shutdown=kill}) runs no hooks, and this JVM would
   * serve on with nobody to stop it. Its standard input is a pipe from that JVM, which writes nothing to
   * it: the pipe ends when that JVM does, however it ended.
   */
  private static void exitWhenParentIsGone(Path workingDirectory) {
    try {
      while (System.in.read() != -1) {
        // nothing is sent: only the end of the stream says something
      }
    } catch (IOException brokenPipe) {
      // the parent is gone as well
    }
    SeparateJvmServer.deleteDirectory(workingDirectory);
    System.exit(0);
  }
}
