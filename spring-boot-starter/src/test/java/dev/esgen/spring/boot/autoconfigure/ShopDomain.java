package dev.esgen.spring.boot.autoconfigure;

import dev.esgen.spring.boot.app.Order;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.annotation.Configuration;

/** The test application's packages, registered as {@code @SpringBootApplication} would register them. */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage(basePackageClasses = Order.class)
class ShopDomain {}
