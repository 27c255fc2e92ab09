package dev.esgen.spring.boot.memo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.esgen.spring.boot.autoconfigure.EsgenAutoConfiguration;
import dev.esgen.test.DynamoDbLocalExtension;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The repository of a package-private aggregate, which is package-private itself, as a bean. */
class PackagePrivateRepositoryTest {

  @RegisterExtension
  static final DynamoDbLocalExtension dynamo = new DynamoDbLocalExtension();

  /** The memo's package, as {@code @SpringBootApplication} would register it. */
  @Configuration(proxyBeanMethods = false)
  @AutoConfigurationPackage(basePackageClasses = Memo.class)
  static class MemoDomain {}

  @Test
  void provisioningReadsTheIndexSlotsOfAPackagePrivateRepository() {
    String prefix = "memo-" + UUID.randomUUID().toString().substring(0, 8);
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(EsgenAutoConfiguration.class))
        .withUserConfiguration(MemoDomain.class)
        .withBean(DynamoDbClient.class, dynamo::client)
        .withPropertyValues("esgen.tables.journal=" + prefix + "-journal", "esgen.tables.snapshot=" + prefix + "-snapshot",
            "esgen.tables.tip=" + prefix + "-streams", "esgen.provision.enabled=true")
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(MemoRepository.class);
          MemoRepository memos = context.getBean(MemoRepository.class);
          memos.create(new MemoWritten("memo-1", "ann"));
          assertThat(memos.loadByAuthor("ann")).isEqualTo(new Memo("memo-1", "ann"));
        });
  }
}
